import {
  Inject,
  Injectable,
  Logger,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { OpenqConfig } from '@openq/platform';
import { OPENQ_CONFIG } from '../../../gates-config';
import { SWEEP_BATCH_SIZE, sweepIdle, type SweepReport } from './sweep-idle.handler';

/**
 * ADR 0207 idle sweep (`sweepIdle`), at boot and every `GATE_SWEEP_INTERVAL_S`, with
 * `GATE_STALE_AFTER_S` and `GATE_PARK_AFTER_S`.
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

  /** One full pass at `now` (tests call it with a `now` in the future). */
  sweepOnce(now: Date = new Date(), batchSize = SWEEP_BATCH_SIZE): Promise<SweepReport> {
    return sweepIdle(this.dataSource, this.config.gates, now, batchSize);
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
