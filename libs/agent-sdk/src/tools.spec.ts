import {
  ALL_TOOLS,
  ANSWER_OPEN_QUESTION,
  ASKER_ROLES,
  CENTRAL_INSTRUCTION,
  ANSWER_RULE,
  DECLARE_OPEN_QUESTION,
  EMIT_QA_VERDICT,
  QA_CUT_RULE,
  TOOL_NAMES,
  TURN_INSTRUCTION,
  WITHDRAW_OPEN_QUESTION,
  anthropicToolsFor,
  isAskerRole,
  openAiToolsFor,
  toAnthropicTool,
  toOpenAiTool,
  toolsFor,
} from './index';

// js-tiktoken ships ESM types only, so this CommonJS spec loads it through import().
let encode: (text: string) => number[];
beforeAll(async () => {
  const { getEncoding } = await import('js-tiktoken');
  const encoding = getEncoding('cl100k_base');
  encode = (text) => encoding.encode(text);
});
const tokens = (text: string): number => encode(text).length;

/** A nested keyword of a schema: at(schema, 'properties', 'pergunta', 'maxLength'). */
const at = (schema: unknown, ...path: string[]): unknown =>
  path.reduce<unknown>(
    (node, key) =>
      typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[key] : undefined,
    schema,
  );
const keysAt = (schema: unknown, ...path: string[]): string[] => Object.keys(at(schema, ...path) as object);

describe('token budget (ADR 0214: ~60 tokens per asker turn)', () => {
  const descriptions = (): { declare: number; answer: number; withdraw: number } => ({
    declare: tokens(DECLARE_OPEN_QUESTION.description),
    answer: tokens(ANSWER_OPEN_QUESTION.description),
    withdraw: tokens(WITHDRAW_OPEN_QUESTION.description),
  });

  it('central instruction + the askers’ three tool descriptions stay within 60 tokens', () => {
    const { declare, answer, withdraw } = descriptions();
    const central = tokens(CENTRAL_INSTRUCTION);
    console.log(
      `cl100k_base: central instruction ${central}, declare_open_question ${declare}, answer_open_question ${answer}, withdraw_open_question ${withdraw}, sum ${central + declare + answer + withdraw}`,
    );
    expect(central + declare + answer + withdraw).toBeLessThanOrEqual(60);
  });

  it('the whole fixed part of a turn (instruction + ADR 0258 closing rule + descriptions) also stays within 60', () => {
    const { declare, answer, withdraw } = descriptions();
    const turn = tokens(TURN_INSTRUCTION);
    const fixed = turn + declare + answer + withdraw;
    console.log(
      `cl100k_base: answer rule ${tokens(ANSWER_RULE)}, turn instruction ${turn}, with descriptions ${fixed}; qa verdict description ${tokens(EMIT_QA_VERDICT.description)}; asker tool schemas as OpenAI JSON ${tokens(JSON.stringify(openAiToolsFor('po')))}`,
    );
    expect(fixed).toBeLessThanOrEqual(60);
  });
});

describe('instruction', () => {
  it('is the exact ADR 0214 sentence', () => {
    expect(CENTRAL_INSTRUCTION).toBe(
      'Every doubt you leave for the user becomes declare_open_question, with your suggestion and what it affects; do not end the turn with a question only in the text.',
    );
  });

  it('names the tools by their real names', () => {
    expect(CENTRAL_INSTRUCTION).toContain(TOOL_NAMES.declareOpenQuestion);
    expect(ANSWER_RULE).toContain(TOOL_NAMES.answerOpenQuestion);
    expect(ANSWER_RULE).toMatch(/unequivocal/);
    expect(ANSWER_RULE).toMatch(/in doubt, leave it open/);
    expect(QA_CUT_RULE).toContain('needs_user_decision, never changes_requested');
  });

  it('turn instruction is the central instruction followed by the closing rule', () => {
    expect(TURN_INSTRUCTION.split('\n')).toEqual([CENTRAL_INSTRUCTION, ANSWER_RULE]);
  });
});

describe('tool definitions', () => {
  it('give each role its tools: the four askers declare, answer and withdraw, QA emits its verdict', () => {
    for (const role of ASKER_ROLES)
      expect(toolsFor(role).map((t) => t.name)).toEqual([
        'declare_open_question',
        'answer_open_question',
        'withdraw_open_question',
      ]);
    expect(toolsFor('qa').map((t) => t.name)).toEqual(['emit_qa_verdict']);
    expect(isAskerRole('dev_lead')).toBe(true);
    expect(isAskerRole('qa-agent')).toBe(false);
  });

  it('declare_open_question carries the SPEC §3.1 ceilings', () => {
    const p = DECLARE_OPEN_QUESTION.parameters;
    expect(at(p, 'required')).toEqual(['pergunta', 'afeta']);
    expect(at(p, 'properties', 'pergunta', 'maxLength')).toBe(500);
    expect(at(p, 'properties', 'sugestao', 'maxLength')).toBe(300);
    expect(keysAt(p, 'properties', 'afeta', 'properties')).toEqual(['regras', 'historias', 'tarefas']);
    expect(at(p, 'properties', 'afeta', 'required')).toEqual(['regras', 'historias', 'tarefas']);
    expect(at(p, 'properties', 'afeta', 'properties', 'tarefas', 'maxItems')).toBe(50);
    expect(at(p, 'properties', 'viaAgente')).toBeUndefined();
  });

  it('answer_open_question takes a questionId and an optional resposta; viaAgente is the caller’s', () => {
    const p = ANSWER_OPEN_QUESTION.parameters;
    expect(at(p, 'required')).toEqual(['questionId']);
    expect(keysAt(p, 'properties')).toEqual(['questionId', 'resposta']);
    expect(at(p, 'properties', 'resposta', 'maxLength')).toBe(2000);
  });

  it('withdraw_open_question takes a questionId and a motivo (1–500, SPEC §11.5); viaAgente is the caller’s', () => {
    const p = WITHDRAW_OPEN_QUESTION.parameters;
    expect(at(p, 'required')).toEqual(['questionId', 'motivo']);
    expect(keysAt(p, 'properties')).toEqual(['questionId', 'motivo']);
    expect(at(p, 'properties', 'motivo', 'maxLength')).toBe(500);
    expect(at(p, 'properties', 'motivo', 'minLength')).toBe(1);
  });

  it('emit_qa_verdict offers the four verdicts and the needs_user_decision fields', () => {
    const p = EMIT_QA_VERDICT.parameters;
    expect(at(p, 'properties', 'veredito', 'enum')).toEqual([
      'approved',
      'changes_requested',
      'blocked',
      'needs_user_decision',
    ]);
    expect(at(p, 'required')).toEqual(['veredito', 'resumo', 'itens']);
    expect(keysAt(p, 'properties')).toEqual(
      expect.arrayContaining(['pergunta', 'sugestao', 'openQuestionId']),
    );
  });

  it('every schema is a plain top-level object schema (no top-level combinators: Anthropic refuses them)', () => {
    for (const tool of ALL_TOOLS) {
      expect(tool.parameters['type']).toBe('object');
      for (const key of ['oneOf', 'anyOf', 'allOf', 'if']) expect(tool.parameters[key]).toBeUndefined();
      expect(JSON.parse(JSON.stringify(tool.parameters))).toEqual(tool.parameters);
    }
  });
});

describe('provider formats', () => {
  it('OpenAI: { type: "function", function: { name, description, parameters } }', () => {
    expect(toOpenAiTool(DECLARE_OPEN_QUESTION)).toEqual({
      type: 'function',
      function: {
        name: 'declare_open_question',
        description: DECLARE_OPEN_QUESTION.description,
        parameters: DECLARE_OPEN_QUESTION.parameters,
      },
    });
    expect(openAiToolsFor('qa').map((t) => t.function.name)).toEqual(['emit_qa_verdict']);
  });

  it('Anthropic: { name, description, input_schema }', () => {
    expect(toAnthropicTool(ANSWER_OPEN_QUESTION)).toEqual({
      name: 'answer_open_question',
      description: ANSWER_OPEN_QUESTION.description,
      input_schema: ANSWER_OPEN_QUESTION.parameters,
    });
    expect(anthropicToolsFor('arquiteto').map((t) => t.name)).toEqual([
      'declare_open_question',
      'answer_open_question',
      'withdraw_open_question',
    ]);
  });

  it('hands out copies: editing a converted tool never edits the shared definition', () => {
    const tool = toOpenAiTool(DECLARE_OPEN_QUESTION);
    (at(tool.function.parameters, 'properties', 'pergunta') as Record<string, unknown>)['maxLength'] = 1;
    expect(at(DECLARE_OPEN_QUESTION.parameters, 'properties', 'pergunta', 'maxLength')).toBe(500);
  });
});
