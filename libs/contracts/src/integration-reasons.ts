import type { ReasonWords } from './edge-reasons';

/**
 * [openq] issue #34 (SPEC §12.5) the reason codes of engine subscriptions and Slack's callbacks,
 * defined once: the code on the wire, its HTTP status, its words in both languages.
 */
export const ENGINE_REASONS = {
  inscricao_nao_encontrada: {
    status: 404,
    en: 'This engine has no event subscription.',
    'pt-BR': 'Este motor não tem inscrição de eventos.',
  },
} as const satisfies Record<string, ReasonWords & { status: number }>;
export type EngineReason = keyof typeof ENGINE_REASONS;

/** The code of each refusal, by name (no string literals in the services). */
export const EngineReason = {
  subscriptionNotFound: 'inscricao_nao_encontrada',
} as const satisfies Record<string, EngineReason>;

/** [openq] issue #34 (SPEC §12.5) the refusals of Slack's interactive callbacks and of linking a Slack user. */
export const SLACK_REASONS = {
  assinatura_invalida: {
    status: 401,
    en: 'This request is not signed by Slack, or its signature is too old.',
    'pt-BR': 'Este pedido não foi assinado pelo Slack, ou a assinatura é antiga demais.',
  },
  slack_ja_vinculado: {
    status: 409,
    en: 'This Slack user is already linked to another openq user.',
    'pt-BR': 'Este usuário do Slack já está vinculado a outro usuário do openq.',
  },
} as const satisfies Record<string, ReasonWords & { status: number }>;
export type SlackReason = keyof typeof SLACK_REASONS;

export const SlackReason = {
  badSignature: 'assinatura_invalida',
  alreadyLinked: 'slack_ja_vinculado',
} as const satisfies Record<string, SlackReason>;
