import { execFileSync } from 'node:child_process';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { createTestDatabase, natsServerBinary } from '@openq/testing';

import { FULL, QUICK, type BenchPlan } from './plan';
import { BENCH_GATEWAY_ENV } from './phases/common';
import { phaseParked } from './phases/parked.phase';
import { phaseReads } from './phases/reads.phase';
import { phaseStack } from './phases/stack.phase';
import { Progress } from './support/progress';
import { REPO_ROOT } from './support/processes';
import { Collector, type BenchResults } from './support/results';
import { writeResults } from './support/report';
import { judgeTargets } from './targets';

export interface BenchOptions {
  quick?: boolean;
  /** Where results go; default test/bench/results (full) or test/artifacts/bench (quick). */
  outDir?: string;
  /** No progress output (tests). */
  quiet?: boolean;
  /**
   * What to run: groups `stack` (floors, ingest, answer→resume, peer, burst), `reads`, `parked`, or
   * single scenarios `ingest`, `resume`, `peer`, `peak`, `burst`, `shed` (the floors run with ingest and resume,
   * which are compared with them). Default: everything.
   */
  only?: string[];
}

export interface BenchOutcome {
  results: BenchResults;
  paths: { json: string; md: string; svg: string };
}

export const PHASES = ['stack', 'reads', 'parked'] as const;
export const STACK_SCENARIOS = ['ingest', 'resume', 'peer', 'peak', 'burst', 'shed'] as const;
export type StackScenario = (typeof STACK_SCENARIOS)[number];

function shell(cmd: string, args: string[]): string {
  try {
    return execFileSync(cmd, args, {
      cwd: REPO_ROOT,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    return 'unknown';
  }
}

async function postgresVersion(): Promise<string> {
  const db = await createTestDatabase('openq_bench_probe');
  const c = new Client({ connectionString: db.url });
  await c.connect();
  const { rows } = await c.query<{ v: string }>(`SELECT current_setting('server_version') AS v`);
  await c.end();
  await db.drop();
  return `PostgreSQL ${rows[0]?.v ?? '?'}`;
}

/** Runs the benchmarks of issues #8 and #14 and writes `<date>.json`, `<date>.md` and `<date>.svg`. */
/**
 * The bench is a load test from one user, one address and one service token: the gateway's rate
 * limits (docs/operations.md "Limits") would measure themselves, so they are off unless the
 * environment says otherwise — in the stacks the phases start (`BENCH_GATEWAY_ENV`) and in the
 * services the parked scenario spawns (which inherit the process environment).
 */
function rateLimitsOff(): void {
  for (const [name, value] of Object.entries(BENCH_GATEWAY_ENV)) process.env[name] ??= value;
}

export async function runBench(options: BenchOptions = {}): Promise<BenchOutcome> {
  rateLimitsOff();
  const plan: BenchPlan = options.quick ? QUICK : FULL;
  const only = options.only?.length ? options.only : null;
  const scenarios = STACK_SCENARIOS.filter((s) => !only || only.includes(s) || only.includes('stack'));
  const phases = PHASES.filter((p) => !only || only.includes(p) || (p === 'stack' && scenarios.length > 0));
  const started = Date.now();
  const date = new Date().toISOString().slice(0, 10);
  const collector = new Collector();
  const details: Record<string, unknown> = { plan };
  const errors: Record<string, string> = {};
  const steps =
    (phases.includes('stack') ? 2 + plan.runs * (1 + scenarios.length) : 0) +
    (phases.includes('reads') ? 4 + 2 * plan.runs + Math.ceil(plan.readsLarge / 2 / plan.seedBatch) : 0) +
    (phases.includes('parked') ? 7 + Math.ceil(plan.parkedCycles / plan.parkedBatch) : 0);
  const progress = Progress.auto(steps, options.quiet === true);

  const cpu = cpus();
  const meta: Record<string, unknown> = {
    date: new Date().toISOString(),
    mode: plan.mode,
    runs: plan.runs,
    node: process.version,
    machine: `${cpu.length} × ${cpu[0]?.model.trim() ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB`,
    natsServer: shell(natsServerBinary(), ['--version']).replace(/^nats-server:?\s*/, ''),
    postgres: await postgresVersion().catch(() => 'PostgreSQL ?'),
    commit: `${shell('git', ['rev-parse', '--short', 'HEAD'])}${shell('git', ['status', '--porcelain']) ? ' (+ uncommitted changes)' : ''}`,
    command: options.quick ? 'npm run bench -- --quick' : 'npm run bench',
    phases,
    /** The machine's load (1, 5, 15 min) when the bench started: other work on it shows here. */
    loadAtStart: loadavg().map((l) => +l.toFixed(2)),
  };

  try {
    const ctx = { plan, collector, details, errors, progress, scenarios };
    if (phases.includes('stack')) await phaseStack(ctx);
    if (phases.includes('reads')) await phaseReads(ctx);
    if (phases.includes('parked')) await phaseParked(ctx);
  } finally {
    progress.stop();
  }

  meta.durationS = Math.round((Date.now() - started) / 1000);
  meta.loadAtEnd = loadavg().map((l) => +l.toFixed(2));
  const results: BenchResults = {
    meta,
    figures: collector.rows(),
    targets: judgeTargets(collector, plan),
    details,
    errors,
  };
  const outDir =
    options.outDir ??
    join(REPO_ROOT, 'test', options.quick ? join('artifacts', 'bench') : join('bench', 'results'));
  const paths = writeResults(outDir, date, results);
  return { results, paths };
}
