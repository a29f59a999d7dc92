import {
  Inject,
  Injectable,
  Logger,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { DataSource } from 'typeorm';
import { isRefusal } from '@openq/contracts';
import { withOutbox } from '@openq/messaging';
import type { OpenqConfig } from '@openq/platform';
import { OPENQ_CONFIG } from '../../gates-config';
import { GateTransaction } from '../gate-transaction';
import type { SweepCursor } from '../store/gate-cycle.store';

/** Cycles per transaction: a batch holds its rows' locks until it commits. */
export const SWEEP_BATCH_SIZE = 50;

export interface SweepReport {
  examined: number;
  parked: number;
  redispatched: number;
}

/**
 * ADR 0207 idle sweep, at boot and every `GATE_SWEEP_INTERVAL_S`: running cycles idle for more
 * than `GATE_STALE_AFTER_S` are re-dispatched (`gate.redispatch_requested`), those idle for more
 * than `GATE_PARK_AFTER_S` are parked (`gate.rescue_parked`, reason `idle`). Cycles parked on a
 * user decision are not running, so the sweep never touches them. Rows are taken with
 * `FOR UPDATE SKIP LOCKED`: replicas sweeping at once share the rows, never process one twice.
 */
@Injectable()
export class IdleSweep implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(IdleSweep.name);
  private timer: NodeJS.Timeout | null = null;
  private inFlight: Promise<unknown> | null = null;
  private stopped = false;

  constructor(
    private readonly dataSource: DataSource,
    @Inject(OPENQ_CONFIG) private readonly config: OpenqConfig,
  ) {}

  onApplicationBootstrap(): void {
    // Called once per part of the hybrid app (HTTP, JetStream transport): one timer (issue #34).
    if (this.timer) return;
    this.tick();
    this.timer = setInterval(() => this.tick(), this.config.gates.sweepIntervalS * 1000);
    this.timer.unref();
  }

  /**
   * Stops the timer and waits for a sweep in progress. Not `onApplicationShutdown`: the global
   * infrastructure module closes the database in that hook, and Nest runs it first.
   */
  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.inFlight;
  }

  /** One full pass at `now`, batch by batch (tests call it with a `now` in the future). */
  async sweepOnce(now: Date = new Date(), batchSize = SWEEP_BATCH_SIZE): Promise<SweepReport> {
    const { staleAfterS, parkAfterS } = this.config.gates;
    const idleSince = new Date(now.getTime() - staleAfterS * 1000);
    const report: SweepReport = { examined: 0, parked: 0, redispatched: 0 };
    let cursor: SweepCursor | null = null;
    for (;;) {
      const batch = await withOutbox(this.dataSource, {}, async (manager, outbox) => {
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

  private tick(): void {
    if (this.stopped || this.inFlight) return;
    this.inFlight = this.sweepOnce()
      .then((r) => {
        if (r.parked + r.redispatched > 0)
          this.logger.log(`idle sweep: ${r.parked} parked, ${r.redispatched} re-dispatch requests`);
      })
      .catch((error: unknown) =>
        this.logger.error(
          `idle sweep failed, next try in ${this.config.gates.sweepIntervalS} s: ${String(error)}`,
        ),
      )
      .finally(() => {
        this.inFlight = null;
      });
  }
}
