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
