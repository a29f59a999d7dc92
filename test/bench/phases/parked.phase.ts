import { M, S } from '../metrics';
import { liveCycles, ProcessSystem, sampleRss, seedParkedCycles } from '../scenarios/parked';
import { quiesce } from '../support/quiesce';
import { sleep } from '../support/stats';
import { withIndexesRebuilt } from '../support/bulk';
import { attempt, type PhaseContext } from './common';

const SERVICES = ['questions', 'gates', 'context', 'gateway'] as const;

/**
 * Scenario 5: each service in a process of its own; RSS sampled (3 ×, `sampleGapMs` apart) after a
 * warm-up, then `parkedCycles` parked cycles bulk-inserted in the gates table, the idle sweep
 * left to run over them (every `sweepIntervalS`), live cycles answered among them, RSS sampled again,
 * and the gates service restarted on top of them (its boot sweep) and sampled once more.
 */
export async function phaseParked(ctx: PhaseContext): Promise<void> {
  const { plan, collector: c, progress } = ctx;
  progress.step('parked: starting questions, gates, context, gateway as processes');
  const system = await attempt(ctx, S.parked, () => ProcessSystem.start(plan.sweepIntervalS));
  progress.tick();
  if (!system) return;
  const details: Record<string, unknown> = { sweepIntervalS: plan.sweepIntervalS };
  ctx.details.parked = details;
  try {
    await attempt(ctx, S.parked, async () => {
      progress.step('parked: warm-up, then live cycles with nothing else parked');
      await liveCycles(system, 'warm', plan.parkedLive, plan.parkedLiveRate, plan.timeoutMs);
      for (let r = 0; r < plan.runs; r++) {
        const run = await liveCycles(
          system,
          `base${r}`,
          plan.parkedLive,
          plan.parkedLiveRate,
          plan.timeoutMs,
        );
        c.add(S.parked, M.parkedResumeP50(plan, 0), 'ms', run.p50);
        c.add(S.parked, M.parkedResumeP99(plan, 0), 'ms', run.p99);
        c.add(S.parked, M.parkedAchieved(plan, 0), 'cycles/s', run.achievedRate);
      }
      await quiesce(system.nc);
      await sleep(2 * plan.sampleGapMs);
      progress.tick();

      progress.step('parked: RSS before');
      const before = await sampleRss(system, plan.runs, plan.sampleGapMs);
      for (const s of before) for (const svc of SERVICES) c.add(S.parked, M.rssBefore(svc), 'MiB', s[svc]);
      const bytesBefore = await system.gatesBytes();
      progress.tick();

      const t0 = Date.now();
      await withIndexesRebuilt(system.pg, 'gates.gate_cycle', async () => {
        for (let from = 0; from < plan.parkedCycles; from += plan.parkedBatch) {
          progress.step(
            `parked: inserting cycles (${from.toLocaleString('en-US')} of ${plan.parkedCycles.toLocaleString('en-US')})`,
          );
          await seedParkedCycles(system.pg, from, Math.min(plan.parkedBatch, plan.parkedCycles - from));
          progress.tick();
        }
        progress.step('parked: rebuilding the gates indexes');
      });
      await system.pg.query('VACUUM ANALYZE gates.gate_cycle');
      details.seedMs = Date.now() - t0;
      const bytesAfter = await system.gatesBytes();
      c.add(S.parked, M.pgBefore, 'MiB', bytesBefore / 2 ** 20);
      c.add(S.parked, M.pgAfter(plan), 'MiB', bytesAfter / 2 ** 20);
      c.add(S.parked, M.pgPerCycle, 'bytes', (bytesAfter - bytesBefore) / plan.parkedCycles);

      progress.step('parked: sweeps over the parked cycles, live cycles among them');
      await sleep(2 * plan.sweepIntervalS * 1000 + 500);
      // Live cycles among the parked ones: what an answer costs when a million others wait.
      await attempt(ctx, `${S.parked}: live cycles`, async () => {
        for (let r = 0; r < plan.runs; r++) {
          const run = await liveCycles(
            system,
            `live${r}`,
            plan.parkedLive,
            plan.parkedLiveRate,
            plan.timeoutMs,
          );
          c.add(S.parked, M.parkedResumeP50(plan), 'ms', run.p50);
          c.add(S.parked, M.parkedResumeP99(plan), 'ms', run.p99);
          c.add(S.parked, M.parkedAchieved(plan), 'cycles/s', run.achievedRate);
        }
      });
      await quiesce(system.nc);
      await sleep(2 * plan.sampleGapMs);
      progress.tick();

      progress.step('parked: RSS after');
      const after = await sampleRss(system, plan.runs, plan.sampleGapMs);
      for (const s of after)
        for (const svc of SERVICES) c.add(S.parked, M.rssAfter(svc, plan), 'MiB', s[svc]);
      for (const svc of SERVICES) {
        const b = c.get(S.parked, M.rssBefore(svc))!;
        after.forEach((s) => c.add(S.parked, M.rssDelta(svc), 'MiB', s[svc] - b.median));
      }
      progress.tick();

      progress.step('parked: restarting gates on top of the parked cycles');
      await system.restart('gates');
      await sleep(2 * plan.sweepIntervalS * 1000);
      for (const s of await sampleRss(system, plan.runs, plan.sampleGapMs))
        c.add(S.parked, M.rssRestarted(plan), 'MiB', s.gates);
      progress.tick();
    });
    progress.step('parked: stopping');
  } finally {
    await system.stop();
  }
  progress.tick();
}
