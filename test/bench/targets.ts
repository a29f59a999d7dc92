import { M, PER, S } from './metrics';
import type { BenchPlan } from './plan';
import type { Collector, Target } from './support/results';

/** Below this an RSS difference is noise of a Node process (GC, JIT), not memory per cycle. */
export const RSS_NOISE_MIB = 16;

/**
 * The targets of issue #29 ("Done when"), those of issue #14 (item 5) and of issue #8 they leave
 * standing, judged on the medians; every ratio is taken inside one run. Reported, never asserted
 * by a test.
 */
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
  const burst = plan.burstDeclarations;
  push(
    'resumes-vs-peer',
    'resumes/s (16 at once) / LangGraph resumes/s (16 at once)',
    c.get(S.peer, M.ratioResumes)?.median,
    '×',
    '≥ 1.5',
    (v) => v >= 1.5,
  );
  push(
    'peak-vs-peer',
    'peak resumes/s (best of 16, 64, 256 in flight) / LangGraph peak resumes/s',
    c.get(S.peak, M.ratioPeak)?.median,
    '×',
    '≥ 3',
    (v) => v >= 3,
  );
  push(
    'solo-vs-peer',
    'answer→resume p50 one at a time / LangGraph resume p50 one at a time',
    c.get(S.peer, M.ratioSolo)?.median,
    '×',
    '≤ 1.5',
    (v) => v <= 1.5,
  );
  push(
    'ingest-batched',
    'ingest throughput / batched floor throughput',
    c.get(S.ingest, M.ingestBatchedRatio)?.median,
    '×',
    '≥ 0.25',
    (v) => v >= 0.25,
  );
  push(
    'cycle-statements',
    'SQL statements per park + answer + resume cycle',
    c.get(S.resume, M.sql(PER.cycle))?.median,
    'statements',
    '≤ 15',
    (v) => v <= 15,
  );
  push(
    'cycle-cpu',
    'CPU (Node + PostgreSQL + nats-server) per park + answer + resume cycle, notifier in the stack',
    c.get(S.resume, M.cpuTotal(PER.cycle))?.median,
    'ms',
    '≤ 6 ms',
    (v) => v <= 6,
  );
  push(
    'pg-per-statement',
    "PostgreSQL CPU per statement in a cycle / the floor's",
    c.get(S.resume, M.pgPerStatementRatio)?.median,
    '×',
    '≤ 2',
    (v) => v <= 2,
  );
  // The burst in the bench's one process, and as deployed (each service a process of its own).
  for (const [scenario, suffix, shape] of [
    [S.burst, '', ''],
    [S.burstDeployed, '-deployed', ', in one project, as deployed'],
  ] as const) {
    push(
      `burst-failed${suffix}`,
      `5xx (or no response) of ${burst.toLocaleString('en-US')} declarations at once over HTTP${shape}`,
      c.get(scenario, M.burstFailed(burst))?.median,
      'requests',
      '0',
      (v) => v === 0,
    );
    push(
      `burst-answered${suffix}`,
      `time until all ${burst.toLocaleString('en-US')} declarations at once are answered${shape}`,
      c.get(scenario, M.burstAllAnswered(burst))?.median,
      'ms',
      '≤ 2,000 ms',
      (v) => v <= 2000,
    );
  }
  push(
    'resume-p99',
    `answer→resume p99 at ${plan.rate} answers/s offered`,
    c.get(S.resume, M.resumeP99(plan))?.median,
    'ms',
    '≤ 25 ms',
    (v) => v <= 25,
  );
  // Issue #27: liveness answers ahead of a read burst (the larger of the shed scenario's bursts).
  const burstOf = (metric: string) => {
    const [, n, unit] = /during ([\d.]+)(k|M)? reads/.exec(metric) ?? [];
    return Number(n) * (unit === 'M' ? 1e6 : unit === 'k' ? 1e3 : 1);
  };
  const probe = c
    .rows()
    .filter((r) => r.scenario === S.shed && r.metric.startsWith('/healthz on the probe port p99'))
    .sort((a, b) => burstOf(a.metric) - burstOf(b.metric))
    .at(-1);
  push(
    'health-p99',
    probe?.metric ?? '/healthz on the probe port p99 during a read burst',
    probe?.figure.median,
    'ms',
    '≤ 100 ms',
    (v) => v <= 100,
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
  // Issue #8's, not replaced by #14's.
  push(
    'resume-p50',
    `answer→resume p50 / floor publish→commit p50 (${plan.rate}/s)`,
    c.get(S.resume, M.resumeRatio)?.median,
    '×',
    '≤ 3',
    (v) => v <= 3,
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
