import { pickRefusals } from './refusals';

/**
 * [openq] issue #34 (SPEC §12.5) the reason codes of engine subscriptions and Slack's callbacks.
 * Their status and words live in the one catalog (refusals.ts, issue #30); these are their groups.
 */
export const ENGINE_REASONS = pickRefusals('inscricao_nao_encontrada');
export type EngineReason = keyof typeof ENGINE_REASONS;

/** The code of each refusal, by name (no string literals in the services). */
export const EngineReason = {
  subscriptionNotFound: 'inscricao_nao_encontrada',
} as const satisfies Record<string, EngineReason>;

/** [openq] issue #34 (SPEC §12.5) the refusals of Slack's interactive callbacks and of linking a Slack user. */
export const SLACK_REASONS = pickRefusals('assinatura_invalida', 'slack_ja_vinculado');
export type SlackReason = keyof typeof SLACK_REASONS;

export const SlackReason = {
  badSignature: 'assinatura_invalida',
  alreadyLinked: 'slack_ja_vinculado',
} as const satisfies Record<string, SlackReason>;
