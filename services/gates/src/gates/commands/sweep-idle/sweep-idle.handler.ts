import type { DataSource } from 'typeorm';
import { isRefusal } from '@openq/contracts';
import { withOutbox } from '@openq/messaging';
import { GateTransaction } from '../../gate-transaction';
import type { SweepCursor } from '../../store/gate-cycle.store';

/** Cycles per transaction: a batch holds its rows' locks until it commits. */
export const SWEEP_BATCH_SIZE = 50;

export interface SweepReport {
  examined: number;
  parked: number;
  redispatched: number;
}

/** `GATE_STALE_AFTER_S` and `GATE_PARK_AFTER_S`. */
export interface SweepThresholds {
  staleAfterS: number;
  parkAfterS: number;
}

/**
 * One full pass of the ADR 0207 idle sweep at `now`, batch by batch, each batch in its own
 * transaction: running cycles idle for more than `staleAfterS` are re-dispatched
 * (`gate.redispatch_requested`), those idle for more than `parkAfterS` are parked
 * (`gate.rescue_parked`, reason `idle`). Cycles parked on a user decision are not running, so the
 * sweep never touches them. Rows are taken with `FOR UPDATE SKIP LOCKED`: replicas sweeping at
 * once share the rows, never process one twice.
 */
export async function sweepIdle(
  dataSource: DataSource,
  { staleAfterS, parkAfterS }: SweepThresholds,
  now: Date,
  batchSize = SWEEP_BATCH_SIZE,
): Promise<SweepReport> {
  const idleSince = new Date(now.getTime() - staleAfterS * 1000);
  const report: SweepReport = { examined: 0, parked: 0, redispatched: 0 };
  let cursor: SweepCursor | null = null;
  for (;;) {
    const batch = await withOutbox(dataSource, {}, async (manager, outbox) => {
      const tx = new GateTransaction(manager, outbox);
      const cycles = await tx.cycles.lockIdle(idleSince, cursor, batchSize);
      for (const cycle of cycles) {
        const decided = await tx.decide({ type: 'sweep', data: { staleAfterS, parkAfterS } }, cycle, now);
        if (isRefusal(decided)) continue;
        for (const e of decided.events) {
          if (e.type === 'gate.rescue_parked') report.parked++;
          if (e.type === 'gate.redispatch_requested') report.redispatched++;
        }
      }
      return cycles;
    });
    report.examined += batch.length;
    const last = batch.at(-1);
    // The walk moves past every row it saw, so a cycle the domain leaves alone ends the loop too.
    if (!last || batch.length < batchSize) return report;
    cursor = {
      lastActivityAt: last.lastActivityAt,
      projectId: last.projectId,
      taskId: last.taskId,
      gate: last.gate,
    };
  }
}
