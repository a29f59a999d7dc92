import { M, S } from './metrics';
import type { BenchPlan } from './plan';
import type { Collector, Target } from './support/results';

/** Below this an RSS difference is noise of a Node process (GC, JIT), not memory per cycle. */
export const RSS_NOISE_MIB = 16;

/** The targets of issue #8, judged on the medians. */
export function judgeTargets(c: Collector, plan: BenchPlan): Target[] {
  const out: Target[] = [];
  const push = (
    id: string,
    description: string,
    value: number | undefined,
    unit: string,
    limit: string,
    met: (v: number) => boolean,
  ) => {
    if (value === undefined || !Number.isFinite(value))
      out.push({ id, description, value: Number.NaN, unit, limit, met: false });
    else out.push({ id, description, value, unit, limit, met: met(value) });
  };
  push(
    'ingest',
    'ingest throughput / floor throughput',
    c.get(S.ingest, M.ingestRatio)?.median,
    '×',
    '≥ 0.5',
    (v) => v >= 0.5,
  );
  push(
    'resume-p50',
    `answer→resume p50 / floor publish→commit p50 (${plan.rate}/s)`,
    c.get(S.resume, M.resumeRatio)?.median,
    '×',
    '≤ 3',
    (v) => v <= 3,
  );
  push(
    'resume-p99',
    `answer→resume p99 at ${plan.rate} answers/s`,
    c.get(S.resume, M.resumeP99(plan))?.median,
    'ms',
    '≤ 25 ms',
    (v) => v <= 25,
  );
  push(
    'read-p99',
    `open-questions p99 at ${plan.readsLarge.toLocaleString('en-US')} events`,
    c.get(S.reads, M.readP99(plan.readsLarge))?.median,
    'ms',
    '≤ 10 ms',
    (v) => v <= 10,
  );
  push(
    'read-scale',
    `open-questions p99 at ${plan.readsLarge.toLocaleString('en-US')} / at ${plan.readsSmall.toLocaleString('en-US')} events`,
    c.get(S.reads, M.readRatio(plan))?.median,
    '×',
    '≤ 1.5',
    (v) => v <= 1.5,
  );
  for (const svc of ['questions', 'gates', 'context', 'gateway']) {
    push(
      `parked-${svc}`,
      `${svc} RSS growth with ${plan.parkedCycles.toLocaleString('en-US')} parked cycles`,
      c.get(S.parked, M.rssDelta(svc))?.median,
      'MiB',
      `≤ ${RSS_NOISE_MIB} MiB (noise)`,
      (v) => v <= RSS_NOISE_MIB,
    );
  }
  return out;
}
