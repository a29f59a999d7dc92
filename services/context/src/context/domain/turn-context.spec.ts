import { CENTRAL_INSTRUCTION, ANSWER_RULE } from '@openq/agent-sdk';
import { MAX_TURN_OPEN_QUESTIONS, buildTurnContext, type OpenQuestionFacts } from './turn-context';

function question(i: number, sugestao: string | null = `suggestion ${i}`): OpenQuestionFacts {
  return {
    questionId: `0190b000-0000-7000-8000-${String(i).padStart(12, '0')}`,
    pergunta: `question ${i}?`,
    sugestao,
    declaredAt: `2026-11-05T10:${String(i).padStart(2, '0')}:00Z`,
  };
}

describe('buildTurnContext (SPEC §6.3)', () => {
  it('carries the one central instruction and the ADR 0258 closing rule, word for word', () => {
    const turn = buildTurnContext('criativo', []);
    expect(turn.instruction).toBe(CENTRAL_INSTRUCTION);
    expect(turn.answerRule).toBe(ANSWER_RULE);
    expect(turn.text).toBe(
      'Every doubt you leave for the user becomes declare_open_question, with your suggestion and what it affects; do not end the turn with a question only in the text.\n' +
        `${ANSWER_RULE}\nOpen questions: none.`,
    );
    expect(turn).toMatchObject({ role: 'criativo', openQuestions: [], openQuestionsTotal: 0 });
  });

  it('lists the open questions newest first with ids and suggestions', () => {
    const turn = buildTurnContext('po', [question(1), question(3, null), question(2)]);
    expect(turn.openQuestions.map((q) => q.pergunta)).toEqual(['question 3?', 'question 2?', 'question 1?']);
    expect(turn.openQuestions[0]).toEqual({
      questionId: question(3).questionId,
      pergunta: 'question 3?',
      sugestao: null,
    });
    expect(turn.text.split('\n').slice(2)).toEqual([
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
    expect(turn.text.split('\n').at(-1)).toBe('showing 20 of 25');
  });

  it('takes the total from the caller when it passes only the newest questions (cut in SQL)', () => {
    const newest = Array.from({ length: 20 }, (_, i) => question(i + 11));
    const turn = buildTurnContext('po', newest, 30);
    expect(turn.openQuestions).toHaveLength(20);
    expect(turn.openQuestionsTotal).toBe(30);
    expect(turn.text.split('\n').at(-1)).toBe('showing 20 of 30');
    expect(buildTurnContext('po', [question(1), question(2)], 1).openQuestionsTotal).toBe(2);
  });
});
