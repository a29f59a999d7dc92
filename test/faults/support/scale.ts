/**
 * One scale for the heavy suites: the fault suites (crashes, outages, shutdown, redelivery, fuzz)
 * and the notifier crash test multiply their load by it.
 *
 * - `npm test` (and CI) runs them at {@link CI_SCALE}: less load, the same faults — every service is
 *   still SIGKILLed (or SIGTERMed, or cut off) at least once and every invariant is still checked.
 * - `npm run test:full` runs them at 1 (FAULTS_SCALE=1): the issues' figures and the ≥ 10,000-event
 *   crash run, and the figures written to docs/ (report.ts) come only from that scale.
 * - FAULTS_SCALE=<n> any other scale.
 */
export const CI_SCALE = 0.15;

export const SCALE = Number(process.env.FAULTS_SCALE ?? CI_SCALE);

/** `n` at the current scale, never below `min` (what the suite needs to make its point). */
export const scaled = (n: number, min = 1): number => Math.max(min, Math.round(n * SCALE));

export const FULL_SCALE = SCALE >= 1;
