/*
 * When a failed send is tried again (issue #17): exponential backoff with jitter, capped, and a
 * ceiling of attempts after which the delivery is dead-lettered. Pure: the random draw comes in.
 */

export interface RetryPolicy {
  /** Attempts in all (the first send included) before a delivery is dead-lettered. */
  maxAttempts: number;
  /** Delay before the 2nd attempt; each later one doubles it. */
  baseMs: number;
  /** No delay is longer than this. */
  maxMs: number;
}

/**
 * The delay after the `attempt`-th attempt failed (1-based): `min(maxMs, baseMs · 2^(attempt-1))`,
 * drawn uniformly in its upper half ("equal jitter": never less than half, so retries of many
 * deliveries spread out without collapsing to zero). `random` ∈ [0, 1).
 */
export function retryDelayMs(policy: RetryPolicy, attempt: number, random: number): number {
  const exp = Math.min(policy.maxMs, policy.baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(exp / 2 + (exp / 2) * Math.min(Math.max(random, 0), 1));
}

export type FailureOutcome = { status: 'retry'; delayMs: number } | { status: 'dead' };

/** After a failed attempt: try again later, or give up (a permanent failure, or the last attempt). */
export function afterFailure(
  policy: RetryPolicy,
  attempt: number,
  permanent: boolean,
  random: number,
): FailureOutcome {
  if (permanent || attempt >= policy.maxAttempts) return { status: 'dead' };
  return { status: 'retry', delayMs: retryDelayMs(policy, attempt, random) };
}
