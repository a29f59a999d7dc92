import type { ErrorBody } from '@openq/contracts';
import { isTransientDbError } from '@openq/persistence';

/**
 * A failure that passes by itself: a service this one depends on is down or slow. A message whose
 * handler throws it is retried with backoff for as long as the outage lasts, and never
 * dead-lettered for it (like a lost database connection); a request answers 503.
 */
export class RetryLaterError extends Error {
  override readonly name = 'RetryLaterError';
}

/** Whether retrying later may succeed where now failed: a `RetryLaterError` or a transient database error. */
export function isRetryLater(error: unknown): boolean {
  return error instanceof RetryLaterError || isTransientDbError(error);
}

/**
 * Another service's failed reply (from `RpcClient`) as an error to throw: 503 and 504 (nobody
 * answering, no answer in time, that service's own outage) are a `RetryLaterError`; any other
 * failure is a plain `Error`, retried a few times and then dead-lettered.
 */
export function replyFailure(context: string, error: ErrorBody): Error {
  const text = `${context}: ${error.statusCode} ${error.reason}: ${error.message}`;
  return error.statusCode === 503 || error.statusCode === 504 ? new RetryLaterError(text) : new Error(text);
}
