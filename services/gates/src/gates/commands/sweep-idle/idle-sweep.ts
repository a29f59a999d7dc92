import {
  Inject,
  Injectable,
  Logger,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { DataSource } from 'typeorm';
import { PeriodicTask, type OpenqConfig } from '@openq/platform';
import { OPENQ_CONFIG } from '../../../gates-config';
import { SWEEP_BATCH_SIZE, sweepIdle, type SweepReport } from './sweep-idle.handler';

/**
 * ADR 0207 idle sweep (`sweepIdle`), at boot and every `GATE_SWEEP_INTERVAL_S`, with
 * `GATE_STALE_AFTER_S` and `GATE_PARK_AFTER_S`; stopped before shutdown, waiting for a sweep in
 * progress (`PeriodicTask`).
 */
@Injectable()
export class IdleSweep implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(IdleSweep.name);
  private readonly periodic: PeriodicTask;

  constructor(
    private readonly dataSource: DataSource,
    @Inject(OPENQ_CONFIG) private readonly config: OpenqConfig,
  ) {
    const intervalS = config.gates.sweepIntervalS;
    this.periodic = new PeriodicTask(
      intervalS * 1000,
      async () => {
        const r = await this.sweepOnce();
        if (r.parked + r.redispatched > 0)
          this.logger.log(`idle sweep: ${r.parked} parked, ${r.redispatched} re-dispatch requests`);
      },
      (error) => this.logger.error(`idle sweep failed, next try in ${intervalS} s: ${String(error)}`),
    );
  }

  onApplicationBootstrap(): void {
    this.periodic.start();
  }

  beforeApplicationShutdown(): Promise<void> {
    return this.periodic.stop();
  }

  /** One full pass at `now` (tests call it with a `now` in the future). */
  sweepOnce(now: Date = new Date(), batchSize = SWEEP_BATCH_SIZE): Promise<SweepReport> {
    return sweepIdle(this.dataSource, this.config.gates, now, batchSize);
  }
}
