import { isDeliveryFailureClass } from '@openq/contracts';

/** A failure in words, for the operator's log only: never the URL's path (a token), never a secret. */
export function detailOf(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.slice(0, 500);
}

/**
 * A failure as stored and shown through the API (issue #27, SPEC §12.2): its class only
 * (`conexao_recusada`, `http_4xx`, …; an e-mail failure's own code), never the detail — the
 * delivery log must not tell a port that answers from one that does not.
 */
export function failureClassOf(error: unknown): string {
  const e = error as { failure?: unknown; reason?: unknown } | null;
  if (isDeliveryFailureClass(e?.failure)) return e.failure;
  if (typeof e?.reason === 'string' && /^[a-z_]{1,64}$/.test(e.reason)) return e.reason;
  return 'resposta_invalida';
}
