import '../../tools/register-paths';
import 'reflect-metadata';
import { Agent, request } from 'node:http';
import { Stack } from '../support/stack';
import { DEV_SERVICE_TOKEN } from '@openq/platform';
import { ProcessSystem } from './scenarios/parked';
import { declareData } from './support/payloads';
import { sqlTrace } from './support/sql-trace';
import { now, quantile } from './support/stats';

/**
 * A burst of declarations at once over raw HTTP (issue #14 item 2, docs/performance.md "Bursts"):
 *
 *   npm run build --silent && node dist/test/bench/burst.js [--n 2000] [--runs 3] [--only processes|statements]
 *
 * `processes`: the four services each in a process of its own from dist/ (the production shape,
 * as `parked`), a private nats-server and a throwaway database; `--n` POSTs to
 * `/internal/projects/:p/open-questions` sent at once, each on its own connection; per run: the
 * statuses, the time until the last answer, latency quantiles, and how many transactions wrote the
 * burst's `question.declared` rows (`xmin` of the log rows).
 * `statements`: the same burst against the stack in this process (questions and the gateway) with
 * every SQL statement counted (`sql-trace`), for statements and transactions per declaration.
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
}

const agent = new Agent({ keepAlive: false, maxSockets: Infinity });

function post(url: string, body: string): Promise<{ status: number; ms: number }> {
  const started = now();
  return new Promise((resolve) => {
    const req = request(
      url,
      {
        method: 'POST',
        agent,
        headers: {
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(body)),
          'x-service-token': DEV_SERVICE_TOKEN,
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: now() - started }));
        res.on('error', () => resolve({ status: 0, ms: now() - started }));
      },
    );
    req.on('error', () => resolve({ status: 0, ms: now() - started }));
    req.end(body);
  });
}

async function burst(baseUrl: string, n: number, tag: string): Promise<Omit<BurstRun, 'writeTransactions'>> {
  const projectId = `burst-${tag}`;
  const url = `${baseUrl}/internal/projects/${projectId}/open-questions`;
  const bodies = Array.from({ length: n }, (_, i) => JSON.stringify(declareData(i, tag)));
  const started = now();
  const answers = await Promise.all(bodies.map((b) => post(url, b)));
  const totalMs = now() - started;
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

async function processes(n: number, runs: number): Promise<BurstRun[]> {
  const system = await ProcessSystem.start(3600);
  try {
    await burst(system.baseUrl, 50, 'warm');
    const out: BurstRun[] = [];
    for (let r = 0; r < runs; r++) {
      const tag = `p${r}-${Date.now()}`;
      const run = await burst(system.baseUrl, n, tag);
      const { rows } = await system.pg.query<{ n: string }>(
        `SELECT count(DISTINCT xmin::text) AS n FROM questions.question_log WHERE project_id = $1 AND type = 'question.declared'`,
        [`burst-${tag}`],
      );
      out.push({ ...run, writeTransactions: Number(rows[0]!.n) });
      process.stdout.write(`processes run ${r + 1}: ${JSON.stringify(out[out.length - 1])}\n`);
    }
    return out;
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
  if (only !== 'statements') result.processes = await processes(n, runs);
  if (only !== 'processes') {
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
