import { CENTRAL_INSTRUCTION, ANSWER_RULE } from '@openq/agent-sdk';
import { DECISIONS_HEADING, MAX_BLOCK_CHARS, MAX_DECISIONS } from './decisions-block';
import { charLength } from './text';
import {
  MAX_TURN_OPEN_QUESTIONS,
  NO_PROJECT_DECISIONS_LINE,
  buildTurnContext,
  type OpenQuestionFacts,
  type TurnDecision,
} from './turn-context';

function question(i: number, sugestao: string | null = `suggestion ${i}`): OpenQuestionFacts {
  return {
    questionId: `0190b000-0000-7000-8000-${String(i).padStart(12, '0')}`,
    pergunta: `question ${i}?`,
    sugestao,
    declaredAt: `2026-11-05T10:${String(i).padStart(2, '0')}:00Z`,
  };
}

/** Decision `i` of the project, decided at minute `i` (so a higher `i` is newer). */
function decision(i: number, fields: Partial<TurnDecision> = {}): TurnDecision {
  const n = String(i).padStart(12, '0');
  return {
    decisionEventId: `0190d000-0000-7000-8000-${n}`,
    questionId: `0190c000-0000-7000-8000-${n}`,
    pergunta: `decided question ${i}?`,
    resposta: `answer ${i}`,
    viaAgente: null,
    decidedAt: `2026-11-06T09:${String(i).padStart(2, '0')}:00.000Z`,
    ...fields,
  };
}
const decisions = (count: number, fields: (i: number) => Partial<TurnDecision> = () => ({})) =>
  Array.from({ length: count }, (_, i) => decision(i + 1, fields(i + 1)));

/** The turn's text in its two parts: instruction + open questions, then the decisions block. */
function parts(text: string): { questions: string[]; decisions: string[]; block: string } {
  const [questions = '', block = ''] = text.split('\n\n');
  return { questions: questions.split('\n'), decisions: block.split('\n'), block };
}

describe('buildTurnContext (SPEC §6.3)', () => {
  it('carries the one central instruction and the ADR 0258 closing rule, word for word', () => {
    const turn = buildTurnContext('criativo', []);
    expect(turn.instruction).toBe(CENTRAL_INSTRUCTION);
    expect(turn.answerRule).toBe(ANSWER_RULE);
    expect(turn.text).toBe(
      'Every doubt you leave for the user becomes declare_open_question, with your suggestion and what it affects; do not end the turn with a question only in the text.\n' +
        `${ANSWER_RULE}\nOpen questions: none.\n\n` +
        'User decisions — they win over FR/DoR when they conflict\nNo user decisions in this project yet.',
    );
    expect(turn).toMatchObject({
      role: 'criativo',
      openQuestions: [],
      openQuestionsTotal: 0,
      decisoes: [],
      decisoesTotal: 0,
    });
  });

  it('lists the open questions newest first with ids and suggestions', () => {
    const turn = buildTurnContext('po', [question(1), question(3, null), question(2)]);
    expect(turn.openQuestions.map((q) => q.pergunta)).toEqual(['question 3?', 'question 2?', 'question 1?']);
    expect(turn.openQuestions[0]).toEqual({
      questionId: question(3).questionId,
      pergunta: 'question 3?',
      sugestao: null,
    });
    expect(parts(turn.text).questions.slice(2)).toEqual([
      'Open questions (newest first):',
      `- ${question(3).questionId}: question 3?`,
      `- ${question(2).questionId}: question 2? (suggestion: suggestion 2)`,
      `- ${question(1).questionId}: question 1? (suggestion: suggestion 1)`,
    ]);
  });

  it('keeps at most 20 questions, the newest, and declares the cut with the total', () => {
    const all = Array.from({ length: 25 }, (_, i) => question(i + 1));
    const turn = buildTurnContext('dev_lead', all);
    expect(MAX_TURN_OPEN_QUESTIONS).toBe(20);
    expect(turn.openQuestions).toHaveLength(20);
    expect(turn.openQuestionsTotal).toBe(25);
    expect(turn.openQuestions[0]?.pergunta).toBe('question 25?');
    expect(turn.openQuestions.at(-1)?.pergunta).toBe('question 6?');
    expect(parts(turn.text).questions.at(-1)).toBe('showing 20 of 25');
  });

  it('takes the total from the caller when it passes only the newest questions (cut in SQL)', () => {
    const newest = Array.from({ length: 20 }, (_, i) => question(i + 11));
    const turn = buildTurnContext('po', newest, 30);
    expect(turn.openQuestions).toHaveLength(20);
    expect(turn.openQuestionsTotal).toBe(30);
    expect(parts(turn.text).questions.at(-1)).toBe('showing 20 of 30');
    expect(buildTurnContext('po', [question(1), question(2)], 1).openQuestionsTotal).toBe(2);
  });
});

describe('buildTurnContext: the project’s decisions (SPEC §11.2, ADR 0214 §8)', () => {
  it('carries the newest decisions with exactly the SPEC fields, after the open questions, under the heading', () => {
    const withExtras = {
      ...decision(2, { viaAgente: 'arquiteto' }),
      respondidaPor: 'ana',
      agentSessionId: 's-9',
    };
    const turn = buildTurnContext('po', [question(1)], 1, { newest: [decision(1), withExtras, decision(3)] });
    expect(turn.decisoes).toEqual([decision(3), decision(2, { viaAgente: 'arquiteto' }), decision(1)]);
    expect(turn.decisoesTotal).toBe(3);
    const { questions, decisions: lines } = parts(turn.text);
    expect(questions.at(-1)).toBe(`- ${question(1).questionId}: question 1? (suggestion: suggestion 1)`);
    expect(lines).toEqual([
      DECISIONS_HEADING,
      '- decided question 3? → answer 3',
      '- decided question 2? → answer 2',
      '- decided question 1? → answer 1',
    ]);
  });

  it('orders newest first by instant (offsets honoured), equal instants by decisionEventId', () => {
    const early = decision(1, { decidedAt: '2026-11-06T12:00:00Z' }); // 12:00 UTC
    const late = decision(2, { decidedAt: '2026-11-06T10:00:00-03:00' }); // 13:00 UTC
    const tieLow = decision(3, { decidedAt: '2026-11-06T11:00:00.000Z' });
    const tieHigh = decision(4, { decidedAt: '2026-11-06T11:00:00Z' });
    const turn = buildTurnContext('dev_lead', [], 0, { newest: [tieLow, early, tieHigh, late] });
    expect(turn.decisoes.map((d) => d.decisionEventId)).toEqual(
      [late, early, tieHigh, tieLow].map((d) => d.decisionEventId),
    );
  });

  it('keeps one decision per question, the newest', () => {
    const older = decision(1, { resposta: 'first answer' });
    const newer = decision(5, { questionId: older.questionId, resposta: 'second answer' });
    const turn = buildTurnContext('po', [], 0, { newest: [older, decision(2), newer] });
    expect(turn.decisoes.map((d) => d.resposta)).toEqual(['second answer', 'answer 2']);
    expect(turn.decisoesTotal).toBe(2);
  });

  it('ceiling of 10 decisions: the 10 newest, and "showing 10 of M" with the caller’s total', () => {
    const all = decisions(12);
    const turn = buildTurnContext('criativo', [], 0, { newest: all });
    expect(MAX_DECISIONS).toBe(10);
    expect(turn.decisoes.map((d) => d.pergunta)).toEqual(
      Array.from({ length: 10 }, (_, i) => `decided question ${12 - i}?`),
    );
    expect(turn.decisoesTotal).toBe(12);
    expect(parts(turn.text).decisions.at(-1)).toBe('showing 10 of 12');

    // the read model cuts in SQL: 10 newest of 37
    const cutInSql = buildTurnContext('criativo', [], 0, { newest: all.slice(2), total: 37 });
    expect([cutInSql.decisoes.length, cutInSql.decisoesTotal]).toEqual([10, 37]);
    expect(parts(cutInSql.text).decisions.at(-1)).toBe('showing 10 of 37');
  });

  it('ceiling of 1,500 characters: long answers cut the list to whole decisions, the newest, declared', () => {
    const long = decisions(10, (i) => ({ resposta: `${'x'.repeat(300)} ${i}` }));
    const turn = buildTurnContext('arquiteto', [], 0, { newest: long });
    const { block, decisions: lines } = parts(turn.text);
    expect(charLength(block)).toBeLessThanOrEqual(MAX_BLOCK_CHARS);
    expect(turn.decisoes.length).toBe(4); // heading 56 + 4 lines of ~330 + "showing 4 of 10"
    expect(turn.decisoes.map((d) => d.pergunta)).toEqual([10, 9, 8, 7].map((i) => `decided question ${i}?`));
    expect(lines.at(-1)).toBe('showing 4 of 10');
    expect(
      lines.slice(1, -1).every((line) => line.endsWith(`${'x'.repeat(300)} ${line.match(/\d+/)?.[0]}`)),
    ).toBe(true);
  });

  it('clips the newest decision rather than drop it when it alone is over the budget, and says so', () => {
    const huge = decision(2, { resposta: 'y'.repeat(2000) });
    const turn = buildTurnContext('po', [], 0, { newest: [decision(1), huge] });
    const { block, decisions: lines } = parts(turn.text);
    expect(charLength(block)).toBe(MAX_BLOCK_CHARS);
    expect(turn.decisoes).toEqual([huge]);
    expect(lines[1]?.endsWith('…')).toBe(true);
    expect(lines.at(-1)).toBe('showing 1 of 2 (clipped)');
  });

  it('says so when the project has no decision yet', () => {
    expect(parts(buildTurnContext('po', [question(1)]).text).decisions).toEqual([
      DECISIONS_HEADING,
      NO_PROJECT_DECISIONS_LINE,
    ]);
  });
});
