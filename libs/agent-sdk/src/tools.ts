import {
  ASKER_ROLES,
  PERGUNTA_MAX_LENGTH,
  RESUMO_MAX_LENGTH,
  SUGESTAO_MAX_LENGTH,
  VEREDITOS,
  VERDICT_ITEMS_MAX,
  VERDICT_ITEM_MAX_LENGTH,
  type AskerRole,
  type Veredito,
} from '@openq/contracts';

/**
 * The agent tools of SPEC §9, defined once as JSON Schema and converted on demand to the
 * OpenAI and Anthropic tool formats. The askers' three definitions ride on every turn next to the
 * turn instruction (ADR 0214's fixed per-turn cost, measured as sent in tools.spec.ts), so they
 * are cut to what a call needs (see below); QA's verdict, sent once per gate round, keeps its
 * ceilings. Word lists and ceilings come from `@openq/contracts`, whose DTOs validate the same
 * fields when the calls arrive.
 */

export { ASKER_ROLES, VEREDITOS, type AskerRole, type Veredito };

export function isAskerRole(value: unknown): value is AskerRole {
  return typeof value === 'string' && (ASKER_ROLES as readonly string[]).includes(value);
}

export const TOOL_NAMES = {
  declareOpenQuestion: 'declare_open_question',
  answerOpenQuestion: 'answer_open_question',
  withdrawOpenQuestion: 'withdraw_open_question',
  emitQaVerdict: 'emit_qa_verdict',
} as const;
export type ToolName = (typeof TOOL_NAMES)[keyof typeof TOOL_NAMES];

/** A JSON Schema object (draft 2020-12 subset both providers accept: no top-level combinators). */
export type JsonSchema = { readonly [keyword: string]: unknown };

export interface ToolDefinition {
  readonly name: ToolName;
  readonly description: string;
  readonly parameters: JsonSchema;
}

/** Arguments the model passes; the caller adds who it is (`viaAgente`, subspecialty, session). */
/** All three lists are required (`[]` for none), as the contract's `AfetaDto` requires them. */
export interface Afeta {
  regras: string[];
  historias: string[];
  tarefas: string[];
}

export interface DeclareOpenQuestionArgs {
  pergunta: string;
  sugestao?: string;
  afeta: Afeta;
}

/** Without `resposta`, the question's own `sugestao` is the answer (ADR 0258 §1). */
export interface AnswerOpenQuestionArgs {
  questionId: string;
  resposta?: string;
}

/** §11.5 a question that no longer needs the user, and why (1–500 characters). */
export interface WithdrawOpenQuestionArgs {
  questionId: string;
  motivo: string;
}

/** For `needs_user_decision`: `pergunta` (+ `sugestao`) for a new question, or `openQuestionId`. */
export interface EmitQaVerdictArgs {
  veredito: Veredito;
  resumo: string;
  itens: string[];
  pergunta?: string;
  sugestao?: string;
  openQuestionId?: string;
}

const nonBlank = (maxLength: number): JsonSchema => ({
  type: 'string',
  minLength: 1,
  maxLength,
  pattern: '\\S',
});
const questionId: JsonSchema = { type: 'string', format: 'uuid' };

/**
 * The askers' three tools ride on every turn (ADR 0214: the fixed per-turn cost), so their
 * schemas say only what a call needs to be accepted: the argument names, their JSON types, and
 * which are required — what is optional is part of the contract (`sugestao`, `resposta`). The
 * refinements (lengths, the id pattern, `format: uuid`, no unknown keys) are not sent: the server
 * checks each of them exactly as before (`DeclareQuestionDto`, `AgentAnswerDto`, the withdraw
 * event's DTO) and a call that breaks one is refused with its reason (`question.rejected`).
 * When to call each tool is said once, by the turn instruction; a description is kept only for
 * what neither the name nor the instruction says.
 */
const text: JsonSchema = { type: 'string' };
const ids: JsonSchema = { type: 'array', items: text };

export const DECLARE_OPEN_QUESTION: ToolDefinition = {
  name: TOOL_NAMES.declareOpenQuestion,
  // The central instruction is this tool's description (ADR 0214 §2: one sentence, not repeated).
  description: '',
  parameters: {
    type: 'object',
    properties: {
      pergunta: text,
      sugestao: text,
      afeta: {
        type: 'object',
        properties: { regras: ids, historias: ids, tarefas: ids },
        required: ['regras', 'historias', 'tarefas'],
      },
    },
    required: ['pergunta', 'afeta'],
  },
};

/** ADR 0258 §1: without `resposta`, the question's own `sugestao` is the answer. */
export const ANSWER_OPEN_QUESTION: ToolDefinition = {
  name: TOOL_NAMES.answerOpenQuestion,
  description: 'No resposta: accept its sugestao',
  parameters: {
    type: 'object',
    properties: { questionId: text, resposta: text },
    required: ['questionId'],
  },
};

/** §12.1 an agent withdraws only the questions it asked (else `so_quem_perguntou`). */
export const WITHDRAW_OPEN_QUESTION: ToolDefinition = {
  name: TOOL_NAMES.withdrawOpenQuestion,
  description: 'Only your own',
  parameters: {
    type: 'object',
    properties: { questionId: text, motivo: text },
    required: ['questionId', 'motivo'],
  },
};

export const EMIT_QA_VERDICT: ToolDefinition = {
  name: TOOL_NAMES.emitQaVerdict,
  description:
    'Report your QA verdict; needs_user_decision takes pergunta and sugestao, or openQuestionId, not both',
  parameters: {
    type: 'object',
    properties: {
      veredito: { type: 'string', enum: [...VEREDITOS] },
      resumo: nonBlank(RESUMO_MAX_LENGTH),
      itens: { type: 'array', items: nonBlank(VERDICT_ITEM_MAX_LENGTH), maxItems: VERDICT_ITEMS_MAX },
      pergunta: nonBlank(PERGUNTA_MAX_LENGTH),
      sugestao: { type: 'string', maxLength: SUGESTAO_MAX_LENGTH },
      openQuestionId: questionId,
    },
    required: ['veredito', 'resumo', 'itens'],
    additionalProperties: false,
  },
};

/** The tools of the four askers (ADR 0214 §2, ADR 0258 §1, SPEC §11.5). */
export const ASKER_TOOLS: readonly ToolDefinition[] = [
  DECLARE_OPEN_QUESTION,
  ANSWER_OPEN_QUESTION,
  WITHDRAW_OPEN_QUESTION,
];
/** The tools of QA (and each QA subspecialty). */
export const QA_TOOLS: readonly ToolDefinition[] = [EMIT_QA_VERDICT];
export const ALL_TOOLS: readonly ToolDefinition[] = [...ASKER_TOOLS, ...QA_TOOLS];

export function toolsFor(role: AskerRole | 'qa'): readonly ToolDefinition[] {
  return role === 'qa' ? QA_TOOLS : ASKER_TOOLS;
}

export interface OpenAiTool {
  type: 'function';
  function: { name: ToolName; description?: string; parameters: JsonSchema };
}

export interface AnthropicTool {
  name: ToolName;
  description?: string;
  input_schema: JsonSchema;
}

/** Copies, so an engine that edits its tool list never edits the shared definitions. */
export function toOpenAiTool(tool: ToolDefinition): OpenAiTool {
  return {
    type: 'function',
    function: {
      name: tool.name,
      ...describe(tool),
      parameters: structuredClone(tool.parameters),
    },
  };
}

export function toAnthropicTool(tool: ToolDefinition): AnthropicTool {
  return { name: tool.name, ...describe(tool), input_schema: structuredClone(tool.parameters) };
}

/** An empty description is not sent (both formats take a tool without one). */
function describe(tool: ToolDefinition): { description?: string } {
  return tool.description ? { description: tool.description } : {};
}

export function openAiToolsFor(role: AskerRole | 'qa'): OpenAiTool[] {
  return toolsFor(role).map(toOpenAiTool);
}

export function anthropicToolsFor(role: AskerRole | 'qa'): AnthropicTool[] {
  return toolsFor(role).map(toAnthropicTool);
}
