import '../../tools/register-paths';
import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import { Agent } from 'node:http';
import { Stack } from '../support/stack';
import { DEV_SERVICE_TOKEN } from '@openq/platform';
import { DEPLOYED, ProcessSystem } from './scenarios/parked';
import { BENCH_GATEWAY_ENV } from './phases/common';
import { BENCH_USER, declareData } from './support/payloads';
import { http } from './support/http';
import { openLoop } from './support/load';
import { sqlTrace } from './support/sql-trace';
import { now, quantile } from './support/stats';

/**
 * A burst of declarations at once over raw HTTP (issue #14 item 2, docs/performance.md "Bursts"):
 *
 *   npm run build --silent && node dist/test/bench/burst.js [--n 2000] [--runs 3] [--only processes|answers|statements]
 *
 * `processes`: the four services each in a process of its own from dist/ (the production shape,
 * as `parked`), a private nats-server and a throwaway database; `--n` POSTs to
 * `/internal/projects/:p/open-questions` sent at once, each on its own connection; per run: the
 * statuses, the time until the last answer, latency quantiles, and how many transactions wrote the
 * burst's `question.declared` rows (`xmin` of the log rows).
 * `statements`: the same burst against the stack in this process (questions and the gateway) with
 * every SQL statement counted (`sql-trace`), for statements and transactions per declaration.
 * `answers`: the processes again, 1,000 clicks offered at 200/s open-loop (each timed from when
 * it was due) on declared questions: the HTTP answer's latency.
 */
interface BurstRun {
  n: number;
  statuses: Record<string, number>;
  fiveXx: number;
  totalMs: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  writeTransactions: number | null;
  /** CPU ms per declaration of each service process (and of this load generator) during the run. */
  cpuMsPerDeclaration?: Record<string, number>;
}

/** CPU time (utime + stime) of a process, in ms. */
function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** A burst: every request on a connection of its own. */
const burstAgent = new Agent({ keepAlive: false, maxSockets: Infinity });
/** Steady clicks: kept-alive connections, like a browser's. */
const clickAgent = new Agent({ keepAlive: true, maxSockets: 64 });

async function post(
  url: string,
  body: string,
  headers: Record<string, string> = { 'x-service-token': DEV_SERVICE_TOKEN },
  started = now(),
  agent = burstAgent,
): Promise<{ status: number; ms: number; body: string }> {
  const res = await http('POST', url, { 'content-type': 'application/json', ...headers }, body, {
    agent,
    noResponseAsZero: true,
  });
  return { ...res, ms: now() - started };
}

async function burst(
  baseUrl: string,
  n: number,
  tag: string,
  ids: { projectId: string; questionId: string }[] = [],
): Promise<Omit<BurstRun, 'writeTransactions'>> {
  const projectId = `burst-${tag}`;
  const url = `${baseUrl}/internal/projects/${projectId}/open-questions`;
  const bodies = Array.from({ length: n }, (_, i) => JSON.stringify(declareData(i, tag)));
  const started = now();
  const answers = await Promise.all(bodies.map((b) => post(url, b)));
  const totalMs = now() - started;
  for (const a of answers) {
    if (a.status !== 201) continue;
    ids.push({ projectId, questionId: (JSON.parse(a.body) as { questionId: string }).questionId });
  }
  const statuses: Record<string, number> = {};
  for (const a of answers) statuses[a.status] = (statuses[a.status] ?? 0) + 1;
  const ms = answers.map((a) => a.ms).sort((a, b) => a - b);
  return {
    n,
    statuses,
    fiveXx: answers.filter((a) => a.status >= 500 || a.status === 0).length,
    totalMs: Math.round(totalMs),
    p50Ms: Math.round(quantile(ms, 0.5)),
    p99Ms: Math.round(quantile(ms, 0.99)),
    maxMs: Math.round(ms[ms.length - 1] ?? 0),
  };
}

/** Starts reading each service process's (and this process's) CPU; the call gives ms per unit since. */
function cpuPerUnit(system: ProcessSystem): (units: number) => Record<string, number> {
  const pids = Object.fromEntries([
    ...[...system.processes].map(([name, p]) => [name, p.pid] as const),
    ['loadgen', process.pid] as const,
  ]);
  const before = Object.fromEntries(Object.entries(pids).map(([k, pid]) => [k, cpuMs(pid)]));
  return (units) =>
    Object.fromEntries(
      Object.entries(pids).map(([k, pid]) => [k, +((cpuMs(pid) - before[k]!) / units).toFixed(2)]),
    );
}

async function processes(n: number, runs: number): Promise<BurstRun[]> {
  const system = await ProcessSystem.start(3600, DEPLOYED, { ...BENCH_GATEWAY_ENV });
  try {
    await burst(system.baseUrl, 50, 'warm');
    const out: BurstRun[] = [];
    for (let r = 0; r < runs; r++) {
      const tag = `p${r}-${Date.now()}`;
      const cpu = cpuPerUnit(system);
      const run = await burst(system.baseUrl, n, tag);
      const cpuMsPerDeclaration = cpu(n);
      const { rows } = await system.pg.query<{ n: string }>(
        `SELECT count(DISTINCT xmin::text) AS n FROM questions.question_log WHERE project_id = $1 AND type = 'question.declared'`,
        [`burst-${tag}`],
      );
      out.push({ ...run, writeTransactions: Number(rows[0]!.n), cpuMsPerDeclaration });
      process.stdout.write(`processes run ${r + 1}: ${JSON.stringify(out[out.length - 1])}\n`);
    }
    return out;
  } finally {
    await system.stop();
  }
}

/**
 * Clicks at `rate`/s, open-loop (each timed from when it was due), on questions declared for it:
 * the HTTP answer alone (gateway → questions → 200).
 */
async function answers(rate: number, count: number): Promise<Record<string, unknown>> {
  const system = await ProcessSystem.start(3600, DEPLOYED, { ...BENCH_GATEWAY_ENV });
  try {
    const tag = `a-${Date.now()}`;
    const ids: { projectId: string; questionId: string }[] = [];
    for (let i = 0; i < count; i += 500)
      await burst(system.baseUrl, Math.min(500, count - i), `${tag}-${i}`, ids);
    const pending: Promise<{ status: number; ms: number }>[] = [];
    const tokens = new Map<string, string>();
    const tokenOf = (p: string) => tokens.get(p) ?? tokens.set(p, system.token(BENCH_USER, p)).get(p)!;
    for (const { projectId } of ids) tokenOf(projectId);
    const cpu = cpuPerUnit(system);
    await openLoop(rate, ids.length, (i, due) => {
      const { questionId, projectId } = ids[i]!;
      pending.push(
        post(
          `${system.baseUrl}/projects/${projectId}/open-questions/${questionId}/answer`,
          JSON.stringify({ aceitarSugestao: true }),
          { authorization: `Bearer ${tokenOf(projectId)}` },
          due,
          clickAgent,
        ),
      );
    });
    const done = await Promise.all(pending);
    const cpuMsPerAnswer = cpu(done.length);
    const ms = done.map((a) => a.ms).sort((a, b) => a - b);
    const statuses: Record<string, number> = {};
    for (const a of done) statuses[a.status] = (statuses[a.status] ?? 0) + 1;
    return {
      rate,
      count: done.length,
      statuses,
      p50Ms: +quantile(ms, 0.5).toFixed(1),
      p99Ms: +quantile(ms, 0.99).toFixed(1),
      maxMs: +(ms[ms.length - 1] ?? 0).toFixed(1),
      cpuMsPerAnswer,
    };
  } finally {
    await system.stop();
  }
}

async function statements(n: number): Promise<Record<string, unknown>> {
  sqlTrace.install();
  const stack = await Stack.start({ services: ['questions'] });
  try {
    stack.events.stop();
    stack.agentEvents.stop();
    await burst(stack.baseUrl, 50, 'warm');
    const before = sqlTrace.snapshot();
    const run = await burst(stack.baseUrl, n, `s-${Date.now()}`);
    const counted = sqlTrace.since(before);
    const total = counted.reduce((sum, s) => sum + s.count, 0);
    const transactions = counted
      .filter((s) => /^(START TRANSACTION|BEGIN)/i.test(s.text))
      .reduce((sum, s) => sum + s.count, 0);
    return {
      ...run,
      statementsPerDeclaration: +(total / n).toFixed(2),
      transactionsPerDeclaration: +(transactions / n).toFixed(3),
      top: counted.slice(0, 12).map((s) => ({ count: s.count, text: s.text })),
    };
  } finally {
    await stack.stop();
  }
}

async function main(argv: string[]): Promise<void> {
  let n = 2000;
  let runs = 3;
  let only: string | null = null;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--n') n = Number(argv[++i]);
    else if (argv[i] === '--runs') runs = Number(argv[++i]);
    else if (argv[i] === '--only') only = argv[++i] ?? null;
  }
  const result: Record<string, unknown> = { n, load: (await import('node:os')).loadavg() };
  if (only === null || only === 'processes') result.processes = await processes(n, runs);
  if (only === null || only === 'answers') {
    result.answers = await answers(200, 1000);
    process.stdout.write(`answers: ${JSON.stringify(result.answers)}\n`);
  }
  if (only === null || only === 'statements') {
    result.statements = await statements(n);
    process.stdout.write(`statements: ${JSON.stringify(result.statements)}\n`);
  }
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
}

main(process.argv.slice(2)).then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  },
);
