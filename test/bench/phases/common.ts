import type { BenchPlan } from '../plan';
import type { Progress } from '../support/progress';
import type { Collector } from '../support/results';
import { RATE_LIMITS_OFF } from '../../support/rate-limits';

/** What every phase gets: the plan, where figures go, and where failures are told. */
export interface PhaseContext {
  plan: BenchPlan;
  collector: Collector;
  details: Record<string, unknown>;
  errors: Record<string, string>;
  progress: Progress;
  /** The stack phase's scenarios to run (the floor always runs). */
  scenarios: readonly string[];
}

/** Runs one measurement; a failure is recorded against the scenario (first one wins) and yields null. */
export async function attempt<T>(
  ctx: PhaseContext,
  scenario: string,
  work: () => Promise<T>,
): Promise<T | null> {
  try {
    return await work();
  } catch (error) {
    ctx.errors[scenario] ??= error instanceof Error ? error.message : String(error);
    return null;
  }
}

/** The gateway's rate limits off: the bench is a load test from one user, address and token. */
export const BENCH_GATEWAY_ENV = RATE_LIMITS_OFF;
