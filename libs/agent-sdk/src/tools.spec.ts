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
import {
  AgentEvent,
  agentEventRegistry,
  PERGUNTA_MAX_LENGTH,
  RESPOSTA_MAX_LENGTH,
  SUGESTAO_MAX_LENGTH,
  WITHDRAW_MOTIVO_MAX_LENGTH,
  type AgentEventType,
} from '@openq/contracts';

const QID = '0190d6a0-7b3c-7def-8abc-0123456789ab';

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

/**
 * ADR 0214's fixed per-turn cost, as sent (SPEC §12.1): the turn instruction and the askers' three
 * tool definitions exactly as a request carries them (the `tools` value, compact JSON), in both
 * formats. The issue asked for ≤ 200 tokens (OpenAI); what the tools must keep saying (names,
 * types, which arguments are required) costs more than that: see docs/decisions.md.
 */
/** The bounds reached (docs/decisions.md, issue #28): a change that adds a token fails here. */
const CENTRAL_PLUS_TOOLS = { openAi: 253, anthropic: 236 };
const TURN_PLUS_TOOLS = { openAi: 273, anthropic: 256 };

describe('fixed per-turn cost as sent (ADR 0214, SPEC §12.1)', () => {
  const cost = () => {
    const openAi = openAiToolsFor('po');
    const anthropic = anthropicToolsFor('po');
    return {
      central: tokens(CENTRAL_INSTRUCTION),
      answerRule: tokens(ANSWER_RULE),
      turn: tokens(TURN_INSTRUCTION),
      openAiEach: openAi.map((tool) => [tool.function.name, tokens(JSON.stringify(tool))] as const),
      anthropicEach: anthropic.map((tool) => [tool.name, tokens(JSON.stringify(tool))] as const),
      openAi: tokens(JSON.stringify(openAi)),
      anthropic: tokens(JSON.stringify(anthropic)),
    };
  };

  it('prints the breakdown and stays within the measured bounds in both formats', () => {
    const c = cost();
    const each = (list: readonly (readonly [string, number])[]): string =>
      list.map(([name, n]) => `${name} ${n}`).join(', ');
    console.log(
      [
        'cl100k_base, per asker turn:',
        `  central instruction ${c.central}, answer rule ${c.answerRule}, turn instruction (both, one line each) ${c.turn}`,
        `  OpenAI tools: ${each(c.openAiEach)}; the tools array ${c.openAi}`,
        `  Anthropic tools: ${each(c.anthropicEach)}; the tools array ${c.anthropic}`,
        `  central instruction + tools: OpenAI ${c.central + c.openAi}, Anthropic ${c.central + c.anthropic}`,
        `  turn instruction + tools: OpenAI ${c.turn + c.openAi}, Anthropic ${c.turn + c.anthropic}`,
      ].join('\n'),
    );
    // Was 33 + 351 (OpenAI) and 33 + 336 (Anthropic) before issue #28.
    expect(c.central + c.openAi).toBeLessThanOrEqual(CENTRAL_PLUS_TOOLS.openAi);
    expect(c.central + c.anthropic).toBeLessThanOrEqual(CENTRAL_PLUS_TOOLS.anthropic);
    expect(c.turn + c.openAi).toBeLessThanOrEqual(TURN_PLUS_TOOLS.openAi);
    expect(c.turn + c.anthropic).toBeLessThanOrEqual(TURN_PLUS_TOOLS.anthropic);
  });

  it('the central sentence + the descriptions still sent stay within ADR 0214’s ~60 tokens', () => {
    const descriptions = [DECLARE_OPEN_QUESTION, ANSWER_OPEN_QUESTION, WITHDRAW_OPEN_QUESTION]
      .map((tool) => (tool.description ? tokens(tool.description) : 0))
      .reduce((a, b) => a + b, 0);
    expect(tokens(CENTRAL_INSTRUCTION) + descriptions).toBeLessThanOrEqual(60);
  });

  it('an empty description is not sent in either format', () => {
    expect(toOpenAiTool(DECLARE_OPEN_QUESTION).function).not.toHaveProperty('description');
    expect(toAnthropicTool(DECLARE_OPEN_QUESTION)).not.toHaveProperty('description');
    expect(toAnthropicTool(WITHDRAW_OPEN_QUESTION).description).toBe(WITHDRAW_OPEN_QUESTION.description);
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

  it('declare_open_question: pergunta and afeta (its three id lists) required, sugestao optional', () => {
    const p = DECLARE_OPEN_QUESTION.parameters;
    expect(at(p, 'required')).toEqual(['pergunta', 'afeta']);
    expect(keysAt(p, 'properties')).toEqual(['pergunta', 'sugestao', 'afeta']);
    expect(at(p, 'properties', 'pergunta', 'type')).toBe('string');
    expect(at(p, 'properties', 'sugestao', 'type')).toBe('string');
    expect(keysAt(p, 'properties', 'afeta', 'properties')).toEqual(['regras', 'historias', 'tarefas']);
    expect(at(p, 'properties', 'afeta', 'required')).toEqual(['regras', 'historias', 'tarefas']);
    expect(at(p, 'properties', 'afeta', 'properties', 'tarefas')).toEqual({
      type: 'array',
      items: { type: 'string' },
    });
    expect(at(p, 'properties', 'viaAgente')).toBeUndefined();
  });

  it('answer_open_question takes a questionId and an optional resposta, and says what its absence means', () => {
    const p = ANSWER_OPEN_QUESTION.parameters;
    expect(at(p, 'required')).toEqual(['questionId']);
    expect(keysAt(p, 'properties')).toEqual(['questionId', 'resposta']);
    // ADR 0258 §1: without resposta, the question's own sugestao is the answer.
    expect(ANSWER_OPEN_QUESTION.description).toMatch(/resposta/);
    expect(ANSWER_OPEN_QUESTION.description).toMatch(/sugestao/);
  });

  it('withdraw_open_question takes a questionId and a motivo, for the agent’s own questions only (§12.1)', () => {
    const p = WITHDRAW_OPEN_QUESTION.parameters;
    expect(at(p, 'required')).toEqual(['questionId', 'motivo']);
    expect(keysAt(p, 'properties')).toEqual(['questionId', 'motivo']);
    expect(WITHDRAW_OPEN_QUESTION.description).toMatch(/own/);
  });

  /**
   * What the askers' schemas no longer send (lengths, id pattern, uuid, unknown keys) the server
   * still checks: the inbound registry the services validate with refuses each, naming the field.
   */
  it('the refinements left out of the askers’ schemas are still refused by the server’s DTOs', () => {
    const declare = {
      sessionId: 's-1',
      sessionAuthorId: 'ana',
      autor: 'po',
      pergunta: 'Which currency?',
      sugestao: 'BRL',
      afeta: { regras: [], historias: ['H-1'], tarefas: [] },
      toolCallId: 'call-1',
    };
    const check = (type: AgentEventType, data: object) => agentEventRegistry.validate(type, data);
    expect(check(AgentEvent.QuestionDeclare, declare)).toMatchObject({ ok: true });
    const refused: [AgentEventType, object, string][] = [
      [AgentEvent.QuestionDeclare, { ...declare, pergunta: 'x'.repeat(PERGUNTA_MAX_LENGTH + 1) }, 'pergunta'],
      [AgentEvent.QuestionDeclare, { ...declare, pergunta: '   ' }, 'pergunta'],
      [AgentEvent.QuestionDeclare, { ...declare, sugestao: 'x'.repeat(SUGESTAO_MAX_LENGTH + 1) }, 'sugestao'],
      [
        AgentEvent.QuestionDeclare,
        { ...declare, afeta: { ...declare.afeta, regras: ['no spaces'] } },
        'afeta',
      ],
      [AgentEvent.QuestionDeclare, { ...declare, afeta: { regras: [], historias: [] } }, 'afeta'],
      [AgentEvent.QuestionDeclare, { ...declare, extra: 1 }, 'extra'],
      [
        AgentEvent.QuestionAnswer,
        { toolCallId: 'call-2', questionId: 'not-a-uuid', viaAgente: 'po' },
        'questionId',
      ],
      [
        AgentEvent.QuestionAnswer,
        {
          toolCallId: 'call-2',
          questionId: QID,
          resposta: 'x'.repeat(RESPOSTA_MAX_LENGTH + 1),
          viaAgente: 'po',
        },
        'resposta',
      ],
      [
        AgentEvent.QuestionWithdraw,
        { toolCallId: 'call-3', questionId: QID, motivo: ' ', viaAgente: 'po' },
        'motivo',
      ],
      [
        AgentEvent.QuestionWithdraw,
        {
          toolCallId: 'call-3',
          questionId: QID,
          motivo: 'x'.repeat(WITHDRAW_MOTIVO_MAX_LENGTH + 1),
          viaAgente: 'po',
        },
        'motivo',
      ],
    ];
    for (const [type, data, field] of refused) {
      const result = check(type, data);
      expect({ data, ok: result.ok }).toEqual({ data, ok: false });
      expect(result.ok === false && result.field).toContain(field);
    }
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
    expect(at(DECLARE_OPEN_QUESTION.parameters, 'properties', 'pergunta', 'maxLength')).toBeUndefined();
  });
});
