import {
  AFETA_MAX_IDS,
  ASKER_ROLES,
  ID_PATTERN,
  PERGUNTA_MAX_LENGTH,
  RESPOSTA_MAX_LENGTH,
  RESUMO_MAX_LENGTH,
  SUGESTAO_MAX_LENGTH,
  VEREDITOS,
  VERDICT_ITEMS_MAX,
  VERDICT_ITEM_MAX_LENGTH,
  WITHDRAW_MOTIVO_MAX_LENGTH,
  type AskerRole,
  type Veredito,
} from '@openq/contracts';

/**
 * The agent tools of SPEC §9, defined once as JSON Schema and converted on demand to the
 * OpenAI and Anthropic tool formats. Descriptions are deliberately terse: the askers' three
 * descriptions ride on every turn next to the central instruction, within ADR 0214's budget;
 * when to use each tool is said by that instruction, not repeated here. Word lists and ceilings
 * come from `@openq/contracts`, whose DTOs validate the same fields when the calls arrive.
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
const idList: JsonSchema = {
  type: 'array',
  items: { type: 'string', pattern: ID_PATTERN.source },
  maxItems: AFETA_MAX_IDS,
};
const questionId: JsonSchema = { type: 'string', format: 'uuid' };

export const DECLARE_OPEN_QUESTION: ToolDefinition = {
  name: TOOL_NAMES.declareOpenQuestion,
  description: 'Ask the user',
  parameters: {
    type: 'object',
    // SPEC §12.3 the replies an asker can meet, in 12 tokens (README, "Ask once").
    description: 'joined=already asked; precedent=already decided',
    properties: {
      pergunta: nonBlank(PERGUNTA_MAX_LENGTH),
      sugestao: { type: 'string', maxLength: SUGESTAO_MAX_LENGTH },
      afeta: {
        type: 'object',
        properties: { regras: idList, historias: idList, tarefas: idList },
        required: ['regras', 'historias', 'tarefas'],
        additionalProperties: false,
      },
    },
    required: ['pergunta', 'afeta'],
    additionalProperties: false,
  },
};

export const ANSWER_OPEN_QUESTION: ToolDefinition = {
  name: TOOL_NAMES.answerOpenQuestion,
  description: 'Close a question',
  parameters: {
    type: 'object',
    properties: { questionId, resposta: nonBlank(RESPOSTA_MAX_LENGTH) },
    required: ['questionId'],
    additionalProperties: false,
  },
};

/** §11.5 one word of description: the askers' fixed part of a turn stays within ADR 0214's 60 tokens. */
export const WITHDRAW_OPEN_QUESTION: ToolDefinition = {
  name: TOOL_NAMES.withdrawOpenQuestion,
  description: 'Withdraw',
  parameters: {
    type: 'object',
    properties: { questionId, motivo: nonBlank(WITHDRAW_MOTIVO_MAX_LENGTH) },
    required: ['questionId', 'motivo'],
    additionalProperties: false,
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
  function: { name: ToolName; description: string; parameters: JsonSchema };
}

export interface AnthropicTool {
  name: ToolName;
  description: string;
  input_schema: JsonSchema;
}

/** Copies, so an engine that edits its tool list never edits the shared definitions. */
export function toOpenAiTool(tool: ToolDefinition): OpenAiTool {
  return {
    type: 'function',
    function: {
      name: tool.name,
      description: tool.description,
      parameters: structuredClone(tool.parameters),
    },
  };
}

export function toAnthropicTool(tool: ToolDefinition): AnthropicTool {
  return { name: tool.name, description: tool.description, input_schema: structuredClone(tool.parameters) };
}

export function openAiToolsFor(role: AskerRole | 'qa'): OpenAiTool[] {
  return toolsFor(role).map(toOpenAiTool);
}

export function anthropicToolsFor(role: AskerRole | 'qa'): AnthropicTool[] {
  return toolsFor(role).map(toAnthropicTool);
}
