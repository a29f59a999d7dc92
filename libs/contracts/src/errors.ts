import type { RefusalReason } from './refusals';

/**
 * Error body of every HTTP error and every failed reply (SPEC §4, §8). `reason` is a string on
 * the wire (a reply from an older or newer service may bring a code this build does not know);
 * what this code base produces is a `RefusalReason` (refusals.ts), which `refusal()` and
 * `errorReply()` enforce.
 */
export interface ErrorBody {
  statusCode: number;
  reason: string;
  message: string;
  /** For a 503 `sobrecarregado` (or a 429) between services: when to come back; HTTP says it as `Retry-After`. */
  retryAfterSeconds?: number;
}

export type Reply<T> = { ok: true; data: T } | { ok: false; error: ErrorBody };

export function okReply<T>(data: T): Reply<T> {
  return { ok: true, data };
}

export function errorReply(statusCode: number, reason: RefusalReason, message: string): Reply<never> {
  return { ok: false, error: { statusCode, reason, message } };
}

/** A refusal a domain decision returns: a stable reason code and words for a person. */
export interface Refusal {
  refused: true;
  reason: RefusalReason;
  message: string;
  statusCode: number;
  details?: Record<string, unknown>;
}

export function refusal(
  statusCode: number,
  reason: RefusalReason,
  message: string,
  details?: Record<string, unknown>,
): Refusal {
  return { refused: true, statusCode, reason, message, ...(details ? { details } : {}) };
}

export function isRefusal(value: unknown): value is Refusal {
  return typeof value === 'object' && value !== null && (value as Refusal).refused === true;
}
