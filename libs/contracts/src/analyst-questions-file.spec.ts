import {
  ANALYST_INSTRUCTION,
  QUESTIONS_FILE_MANIFEST_LINE,
  QUESTIONS_FILE_REASONS,
  QUESTIONS_FILE_TEMPLATE,
  normalizeAnalystQuestion,
  renderQuestionsFile,
  validateQuestionsFile,
  type QuestionsFileResult,
} from './analyst-questions-file';
import { agentEventRegistry } from './events';
import { AgentEvent } from './events/agent-events';
import { ANALYST_QUESTIONS_MAX, PERGUNTA_MAX_LENGTH, SUGESTAO_MAX_LENGTH } from './limits';
import { eventExample } from './testing/event-examples';
import { ANALYST_DELIVERABLES, ANALYST_QUESTIONS_FILE } from './vocabulary';

const questionsOf = (result: QuestionsFileResult) => {
  if (!result.ok) throw new Error(`refused: ${JSON.stringify(result.errors)}`);
  return result.questions;
};
const errorsOf = (text: string) => {
  const result = validateQuestionsFile(text);
  if (result.ok) throw new Error(`accepted: ${JSON.stringify(result.questions)}`);
  for (const e of result.errors) expect(QUESTIONS_FILE_REASONS).toContain(e.reason);
  return result.errors.map(({ line, reason }) => ({ line, reason }));
};

describe('validateQuestionsFile: a good file', () => {
  it('gives back each question with its suggestion, in order, trimmed', () => {
    const file = [
      '# Blocking questions — T1',
      '',
      '## Q1',
      'Question:   Which markets does the first release cover?  ',
      'Suggestion: Brazil only.',
      '',
      '## Q2',
      'Question: Which tax regime applies?',
      '',
    ].join('\n');
    expect(questionsOf(validateQuestionsFile(file))).toEqual([
      { pergunta: 'Which markets does the first release cover?', sugestao: 'Brazil only.' },
      { pergunta: 'Which tax regime applies?', sugestao: null },
    ]);
  });

  it('joins the lines a question or a suggestion goes on over, paragraph breaks kept', () => {
    const file =
      'Question: Which markets\n  come first?\n\nThe brief names two.\nSuggestion: Brazil,\nthen Portugal.\n';
    expect(questionsOf(validateQuestionsFile(file))).toEqual([
      { pergunta: 'Which markets\ncome first?\n\nThe brief names two.', sugestao: 'Brazil,\nthen Portugal.' },
    ]);
  });

  it('takes bold keys, the contract words, CRLF, a BOM, comments anywhere and an empty suggestion', () => {
    const file =
      '\uFEFF# Q\r\n<!-- a note\r\nover lines -->\r\n**Question:** One? <!-- inline -->\r\n**Sugestão**: Yes\r\n' +
      'pergunta: Two?\r\nSuggestion:\r\n';
    expect(questionsOf(validateQuestionsFile(file))).toEqual([
      { pergunta: 'One?', sugestao: 'Yes' },
      { pergunta: 'Two?', sugestao: null },
    ]);
  });

  it('accepts exactly the contract ceilings: 50 questions, 500 and 300 characters (emoji count as one)', () => {
    const long = '😀'.repeat(PERGUNTA_MAX_LENGTH);
    const file = Array.from(
      { length: ANALYST_QUESTIONS_MAX },
      (_, i) =>
        `## Q${i + 1}\nQuestion: ${i === 0 ? long : `Q${i}?`}\nSuggestion: ${'s'.repeat(SUGESTAO_MAX_LENGTH)}\n`,
    ).join('\n');
    const questions = questionsOf(validateQuestionsFile(file));
    expect(questions).toHaveLength(ANALYST_QUESTIONS_MAX);
    expect(questions[0]!.pergunta).toBe(long);
  });
});

describe('validateQuestionsFile: each malformed case, with its reason and line', () => {
  it.each<[string, string, { line: number; reason: string }[]]>([
    ['an empty file', '', [{ line: 1, reason: 'sem_perguntas' }]],
    [
      'headings and comments only',
      '# Questions\n<!-- none -->\n## Q1\n',
      [{ line: 1, reason: 'sem_perguntas' }],
    ],
    [
      'a blank question',
      '# Q\nQuestion:   \nSuggestion: Brazil\n',
      [{ line: 2, reason: 'pergunta_invalida' }],
    ],
    [
      'a question over 500 characters',
      `Question: ok?\n\nQuestion: ${'x'.repeat(PERGUNTA_MAX_LENGTH + 1)}\n`,
      [{ line: 3, reason: 'pergunta_invalida' }],
    ],
    [
      'a question over 500 characters once its lines are joined',
      `Question: ${'x'.repeat(PERGUNTA_MAX_LENGTH - 1)}\nmore\n`,
      [{ line: 1, reason: 'pergunta_invalida' }],
    ],
    [
      'a suggestion over 300 characters',
      `Question: ok?\nSuggestion: ${'s'.repeat(SUGESTAO_MAX_LENGTH + 1)}\n`,
      [{ line: 1, reason: 'sugestao_invalida' }],
    ],
    ['a NUL character', 'Question: a\u0000b?\n', [{ line: 1, reason: 'pergunta_invalida' }]],
    [
      'two suggestions',
      'Question: One?\nSuggestion: a\nSuggestion: b\n',
      [{ line: 3, reason: 'sugestao_duplicada' }],
    ],
    [
      'a suggestion before any question',
      'Suggestion: Brazil\nQuestion: One?\n',
      [{ line: 1, reason: 'sugestao_sem_pergunta' }],
    ],
    [
      'a suggestion whose question is in an earlier section',
      '## Q1\nQuestion: One?\n## Q2\nSuggestion: Brazil\n',
      [{ line: 4, reason: 'sugestao_sem_pergunta' }],
    ],
    [
      'prose outside a question, once per run of lines',
      'We need to know:\nthree things.\n\nQuestion: One?\n## Q2\nWhich tax regime?\n',
      [
        { line: 1, reason: 'texto_fora_de_pergunta' },
        { line: 6, reason: 'texto_fora_de_pergunta' },
      ],
    ],
    [
      'a list item instead of a key',
      '- Which market?\n',
      [
        { line: 1, reason: 'texto_fora_de_pergunta' },
        { line: 1, reason: 'sem_perguntas' },
      ],
    ],
    [
      'an unclosed comment (what follows it is not read)',
      'Question: One?\n<!-- note\nQuestion: Two?\n',
      [{ line: 2, reason: 'comentario_nao_fechado' }],
    ],
  ])('%s', (_, file, expected) => {
    expect(errorsOf(file)).toEqual(expected);
  });

  it('more than 50 questions: perguntas_demais at the 51st', () => {
    const file = Array.from({ length: ANALYST_QUESTIONS_MAX + 1 }, (_, i) => `Question: Q${i}?`).join('\n');
    expect(errorsOf(file)).toEqual([{ line: ANALYST_QUESTIONS_MAX + 1, reason: 'perguntas_demais' }]);
  });

  it('reports every problem at once, in line order, each message naming its line', () => {
    const result = validateQuestionsFile('stray\nQuestion:\nSuggestion: a\nSuggestion: b\n');
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors.map((e) => [e.line, e.reason])).toEqual([
      [1, 'texto_fora_de_pergunta'],
      [2, 'pergunta_invalida'],
      [4, 'sugestao_duplicada'],
    ]);
    for (const e of result.errors) expect(e.message).toMatch(new RegExp(`^line ${e.line}: `));
    expect(result.errors[1]!.message).toContain('pergunta');
  });

  it('refuses what is not text', () => {
    expect(validateQuestionsFile(Buffer.from('Question: x') as unknown as string)).toEqual({
      ok: false,
      errors: [{ line: 0, reason: 'arquivo_invalido', message: 'the file is not text' }],
    });
  });
});

describe('the template', () => {
  it('holds no question: left untouched it is refused with sem_perguntas only', () => {
    expect(errorsOf(QUESTIONS_FILE_TEMPLATE)).toEqual([{ line: 1, reason: 'sem_perguntas' }]);
  });

  it('shows the format its own parser reads: the example inside the comment parses when uncommented', () => {
    const uncommented = QUESTIONS_FILE_TEMPLATE.replace('<!--', '').replace('-->', '');
    const example = uncommented.slice(uncommented.indexOf('## Q1'), uncommented.indexOf('\n\nHeadings'));
    expect(questionsOf(validateQuestionsFile(example))).toEqual([
      {
        pergunta: 'Which markets does the first release cover?',
        sugestao: 'Brazil only; Portugal in the next release.',
      },
    ]);
  });

  it('filled in by renderQuestionsFile, parses back to the same questions, normalised', () => {
    const questions = [
      { pergunta: '  Which market first?  ', sugestao: ' Brazil ' },
      { pergunta: 'Two lines\nQuestion: this line is text, not a key\n# nor a heading\n\nthird paragraph' },
      { pergunta: 'Blank suggestion?', sugestao: '   ' },
      { pergunta: 'Multi-line suggestion?', sugestao: 'first\nSuggestion: still the suggestion' },
    ];
    const file = renderQuestionsFile(questions);
    expect(file.startsWith(QUESTIONS_FILE_TEMPLATE)).toBe(true);
    expect(questionsOf(validateQuestionsFile(file))).toEqual(questions.map(normalizeAnalystQuestion));
  });

  it('renderQuestionsFile refuses what the contract refuses, and comment markers', () => {
    expect(() => renderQuestionsFile([{ pergunta: ' ' }])).toThrow(/question 1: pergunta/);
    expect(() => renderQuestionsFile([{ pergunta: 'see <!-- this' }])).toThrow(RangeError);
    expect(() =>
      renderQuestionsFile(Array.from({ length: ANALYST_QUESTIONS_MAX + 1 }, () => ({ pergunta: 'q' }))),
    ).toThrow(RangeError);
  });

  it('what the parser accepts passes the agent.analysis.finished contract as the questions', () => {
    const file = renderQuestionsFile([{ pergunta: 'A?', sugestao: 'B' }, { pergunta: 'C?' }]);
    const questions = questionsOf(validateQuestionsFile(file));
    const data = { ...eventExample(AgentEvent.AnalysisFinished), questions };
    expect(agentEventRegistry.validate(AgentEvent.AnalysisFinished, data).ok).toBe(true);
  });
});

describe('the instruction and the manifest line', () => {
  it('tell the analyst where blocking questions go and not to fabricate', () => {
    expect(ANALYST_INSTRUCTION).toContain(ANALYST_QUESTIONS_FILE);
    expect(ANALYST_INSTRUCTION).toMatch(/never fabricate an answer/);
    expect(ANALYST_INSTRUCTION).toMatch(/"Question:".*"Suggestion:"/);
  });

  it('the manifest line is one line naming the file, the template and every deliverable', () => {
    expect(QUESTIONS_FILE_MANIFEST_LINE).not.toContain('\n');
    expect(QUESTIONS_FILE_MANIFEST_LINE).toContain(`\`${ANALYST_QUESTIONS_FILE}\``);
    expect(QUESTIONS_FILE_MANIFEST_LINE).toContain('docs/_templates/01-questions.md');
    for (const file of ANALYST_DELIVERABLES) expect(QUESTIONS_FILE_MANIFEST_LINE).toContain(file);
  });
});
