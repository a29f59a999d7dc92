import { retryDelayMs, type RetryPolicy } from './backoff';

const policy: RetryPolicy = { maxAttempts: 5, baseMs: 1000, maxMs: 10_000 };

describe('retry backoff', () => {
  it('doubles from the base, within the upper half (equal jitter)', () => {
    expect([1, 2, 3, 4].map((a) => retryDelayMs(policy, a, 0))).toEqual([500, 1000, 2000, 4000]);
    expect([1, 2, 3, 4].map((a) => retryDelayMs(policy, a, 0.999999))).toEqual([1000, 2000, 4000, 8000]);
  });

  it('never waits longer than the cap', () => {
    expect(retryDelayMs(policy, 30, 0.999999)).toBe(10_000);
    expect(retryDelayMs(policy, 30, 0)).toBe(5000);
  });

  it('spreads retries with the random draw', () => {
    const draws = [0.1, 0.4, 0.7].map((r) => retryDelayMs(policy, 3, r));
    expect(new Set(draws).size).toBe(3);
    for (const d of draws) expect(d).toBeGreaterThanOrEqual(2000);
  });

  // The decision after a failed attempt (dead-letter or retry): delivery.spec.ts, on the decider kit.
});
