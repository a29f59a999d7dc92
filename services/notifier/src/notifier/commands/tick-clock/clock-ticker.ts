import { Logger } from '@nestjs/common';
import { v5 as uuidv5 } from 'uuid';
import { isRefusal } from '@openq/contracts';
import type { DataSource, EntityManager } from 'typeorm';
import type { ChannelKind } from '../../adapters/channels/channel';
import { schedule } from '../../clock-schedule';
import { clockNotices, clockTickPlanOf } from '../../domain/clock-notices';
import {
  claimClockQuestions,
  givenKeys,
  maintainersOf,
  recordNotices,
  setNextClock,
  workingTimesOf,
  type ClockQuestionRow,
} from '../../store/clock.store';
import { addressToChannels } from '../enqueue-notifications/enqueue';

/** Namespace of a clock notice's event id: uuidv5(notice key), the same however often computed. */
const NOTICE_NAMESPACE = '5e0c7f4a-2b1d-4c3e-9f8a-6d7e1b2c3a4f';

export function noticeEventId(key: string): string {
  return uuidv5(key, NOTICE_NAMESPACE);
}

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
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<number> | null = null;
  /** Set by stop(): no new tick, and a tick running ends after its batch. */
  private stopped = false;

  constructor(
    private readonly dataSource: DataSource,
    private readonly options: ClockTickerOptions,
  ) {}

  start(): void {
    void this.loop();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running?.catch(() => 0);
  }

  private async loop(): Promise<void> {
    if (this.stopped) return;
    await this.tick().catch((error: unknown) => {
      this.logger.warn(`clock tick failed: ${error instanceof Error ? error.message : String(error)}`);
    });
    if (this.stopped) return;
    this.timer = setTimeout(() => void this.loop(), this.options.tickMs);
    this.timer.unref();
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

  private async tickBatch(m: EntityManager, now: Date): Promise<{ questions: number; deliveries: number }> {
    const rows = await claimClockQuestions(m, now, this.options.batch);
    if (rows.length === 0) return { questions: 0, deliveries: 0 };
    const given = await givenKeys(
      m,
      rows.map((r) => r.question_id),
    );
    const maintainers = await maintainersOf(
      m,
      rows.map((r) => r.project_id),
    );
    const people = rows.flatMap((r) => [
      r.session_author_id,
      ...(r.policy.escalateTo === 'maintainers'
        ? (maintainers.get(r.project_id) ?? [])
        : r.policy.escalateTo.users),
    ]);
    const workingTimeOf = await workingTimesOf(m, people);
    let deliveries = 0;
    const next: { questionId: string; at: Date | null }[] = [];
    for (const row of rows) {
      const question = questionOf(row);
      const owed = schedule(
        {
          questionId: question.questionId,
          declaredAt: question.declaredAt,
          authorId: question.sessionAuthorId,
          status: 'open',
        },
        row.policy,
        workingTimeOf,
        given,
        maintainers.get(row.project_id) ?? [],
      );
      // The clock-notices decider on the question's state as read (the keys given so far): its
      // events are the rows below — the notices, the deliveries of the fresh ones, the next instant.
      const events = clockNotices.decide(
        { type: 'tick', question, owed, workingTimeOf },
        { given, next: null },
        now,
      );
      if (isRefusal(events)) throw new Error(`clock notices refused: ${events.reason}`);
      const plan = clockTickPlanOf(events);
      next.push({ questionId: row.question_id, at: plan.next });
      const fresh = await recordNotices(m, row.project_id, plan.given);
      for (const told of plan.told.filter((t) => fresh.has(t.key))) {
        const eventId = noticeEventId(told.key);
        deliveries += await addressToChannels(
          m,
          { projectId: row.project_id, eventId, occurredAt: now.toISOString() },
          [told.planned],
          this.options,
        );
      }
    }
    await setNextClock(m, next);
    return { questions: rows.length, deliveries };
  }
}

function questionOf(row: ClockQuestionRow) {
  return {
    questionId: row.question_id,
    sessionAuthorId: row.session_author_id,
    autor: row.autor,
    pergunta: row.pergunta,
    sugestao: row.sugestao,
    afeta: row.afeta,
    origin: row.origin,
    declaredAt: new Date(row.declared_at),
  };
}
