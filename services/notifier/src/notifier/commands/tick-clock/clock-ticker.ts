import { Logger } from '@nestjs/common';
import type { DataSource, EntityManager } from 'typeorm';
import { PeriodicTask } from '@openq/platform';
import type { ChannelKind } from '../../adapters/channels/channel';
import { tickClockBatch } from './tick-clock.handler';

export interface ClockTickerOptions {
  /** How often the clock looks at the open questions. */
  tickMs: number;
  /** Questions planned per transaction. */
  batch: number;
  publicUrl: string;
  kinds: readonly ChannelKind[];
  /** The clock (tests drive it); default: the real time. */
  now?: () => Date;
  /** Called when a tick planned deliveries (the sender looks at once). */
  planned?: () => void;
}

/**
 * The clock of the questions (issue #17): each tick takes `now` from its clock and, for the open
 * questions of projects with a policy whose next instant has come, records the notices owed
 * (`clock_notice`, one row per key, ever), plans one delivery per channel of each person told,
 * and keeps each question's next instant — all in one transaction per batch, the questions
 * locked `SKIP LOCKED` so replicas share them. An answer that lands meanwhile waits for the
 * batch that holds its question, then closes it: from then on its clock owes nothing.
 */
export class ClockTicker {
  private readonly logger = new Logger('ClockTicker');
  private running: Promise<number> | null = null;
  /** Set by stop(): no new tick, and a tick running ends after its batch. */
  private stopped = false;
  /** Its timer: a tick at start, then `tickMs` after each tick ends. */
  private readonly periodic: PeriodicTask;

  constructor(
    private readonly dataSource: DataSource,
    private readonly options: ClockTickerOptions,
  ) {
    this.periodic = new PeriodicTask(
      options.tickMs,
      () => this.tick(),
      (error: unknown) =>
        this.logger.warn(`clock tick failed: ${error instanceof Error ? error.message : String(error)}`),
    );
  }

  start(): void {
    this.periodic.start();
  }

  /** No new tick; a tick running ends after its batch. */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.periodic.stop();
    await this.running?.catch(() => 0);
  }

  /** One tick now (a tick already running is awaited instead): deliveries planned. */
  tick(): Promise<number> {
    if (this.running) return this.running;
    this.running = this.tickAll().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async tickAll(): Promise<number> {
    const now = (this.options.now ?? (() => new Date()))();
    let planned = 0;
    for (;;) {
      const { questions, deliveries } = await this.dataSource.transaction((m) => this.tickBatch(m, now));
      planned += deliveries;
      if (questions < this.options.batch || this.stopped) break;
    }
    if (planned > 0) this.options.planned?.();
    return planned;
  }

  private tickBatch(m: EntityManager, now: Date): Promise<{ questions: number; deliveries: number }> {
    return tickClockBatch(m, now, this.options);
  }
}
