import { Stack } from '../../support/stack';
import { M, S } from '../metrics';
import { explainReads, logSize, readRun, rebuild, seedLog } from '../scenarios/reads';
import { withIndexesRebuilt } from '../support/bulk';
import { attempt, BENCH_GATEWAY_ENV, type PhaseContext } from './common';

/** `Execution Time: 0.123 ms` out of an EXPLAIN ANALYZE. */
function executionMs(plan: string[]): number {
  const line = plan.find((l) => l.startsWith('Execution Time:'));
  return line ? Number(/([\d.]+) ms/.exec(line)?.[1]) : Number.NaN;
}

/**
 * Scenario 4: the open-questions route with a small and a large log. The log is seeded with SQL
 * (INSERT … SELECT generate_series, realistic jsonb), the projection rebuilt with the replay code,
 * then the route is read through the gateway, `runs` times `readRequests` requests, at each size.
 */
export async function phaseReads(ctx: PhaseContext): Promise<void> {
  const { plan, collector: c, progress } = ctx;
  progress.step('reads: starting questions + gateway');
  const stack = await Stack.start({ services: ['questions'], env: { ...BENCH_GATEWAY_ENV } });
  stack.events.stop();
  stack.agentEvents.stop();
  const ds = stack.service('questions').dataSource;
  const details: Record<string, unknown> = {};
  ctx.details.reads = details;
  progress.tick();
  try {
    await attempt(ctx, S.reads, async () => {
      const p99Small: number[] = [];
      for (const [size, from, to] of [
        [plan.readsSmall, 0, plan.readsSmall / 2],
        [plan.readsLarge, plan.readsSmall / 2, plan.readsLarge / 2],
      ] as const) {
        const t0 = Date.now();
        await withIndexesRebuilt(ds, 'question_log', async () => {
          for (let q = from; q < to; q += plan.seedBatch) {
            progress.step(
              `reads: seeding the log to ${size.toLocaleString('en-US')} events (${(q * 2).toLocaleString('en-US')} so far)`,
            );
            await seedLog(ds, q, Math.min(to, q + plan.seedBatch));
            if (size === plan.readsLarge) progress.tick();
          }
          progress.step(`reads: rebuilding the log's indexes at ${size.toLocaleString('en-US')} events`);
        });
        const seedMs = Date.now() - t0;
        progress.step(`reads: replaying the projection at ${size.toLocaleString('en-US')} events`);
        const replayMs = await rebuild(ds);
        const events = await logSize(ds);
        const explain = await explainReads(ds);
        details[String(size)] = { events, seedMs, replayMs, explain };
        progress.tick();
        await readRun(stack, Math.min(100, plan.readRequests)); // warm-up
        for (let r = 0; r < plan.runs; r++) {
          progress.step(`reads @ ${size.toLocaleString('en-US')}: run ${r + 1}/${plan.runs}`);
          const run = await readRun(stack, plan.readRequests);
          c.add(S.reads, M.readP50(size), 'ms', run.p50);
          c.add(S.reads, M.readP99(size), 'ms', run.p99);
          c.add(S.reads, M.readRpcP50(size), 'ms', run.rpcP50);
          c.add(S.reads, M.readRpcP99(size), 'ms', run.rpcP99);
          c.add(S.reads, M.readCpu(size), 'ms', run.cpuPerRequest);
          c.add(S.reads, M.readRpcCpu(size), 'ms', run.cpuPerRpc);
          if (size === plan.readsSmall) p99Small.push(run.p99);
          else c.add(S.reads, M.readRatio(plan), '×', run.p99 / p99Small[r]!);
          progress.tick();
        }
        // The statement alone, to tell the database's part from the HTTP and NATS hops.
        for (let r = 0; r < plan.runs; r++)
          c.add(S.reads, M.readDbMs(size), 'ms', executionMs((await explainReads(ds)).list));
      }
    });
    progress.step('reads: stopping');
  } finally {
    await stack.stop();
  }
  progress.tick();
}
