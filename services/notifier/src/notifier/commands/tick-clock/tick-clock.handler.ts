import { v5 as uuidv5 } from 'uuid';
import { isRefusal } from '@openq/contracts';
import type { EntityManager } from 'typeorm';
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
import { toKnownQuestion } from '../../store/questions.store';

/** Namespace of a clock notice's event id: uuidv5(notice key), the same however often computed. */
const NOTICE_NAMESPACE = '5e0c7f4a-2b1d-4c3e-9f8a-6d7e1b2c3a4f';

export function noticeEventId(key: string): string {
  return uuidv5(key, NOTICE_NAMESPACE);
}

export interface TickClockSettings {
  /** Questions planned per transaction. */
  batch: number;
  publicUrl: string;
  kinds: readonly ChannelKind[];
}

/**
 * One batch of a tick at `now`, in the caller's transaction: claims up to `batch` open questions
 * whose next instant has come (`SKIP LOCKED`), reads the notices given so far, the maintainers
 * and the people's working times (one statement each for the batch), and for each question lets
 * the clock-notices decider say what is owed: its events are the rows — the notices given, one
 * delivery per channel of each person told by a fresh notice, the question's next instant.
 */
export async function tickClockBatch(
  m: EntityManager,
  now: Date,
  options: TickClockSettings,
): Promise<{ questions: number; deliveries: number }> {
  const rows = await claimClockQuestions(m, now, options.batch);
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
        options,
      );
    }
  }
  await setNextClock(m, next);
  return { questions: rows.length, deliveries };
}

function questionOf(row: ClockQuestionRow) {
  return { ...toKnownQuestion(row), declaredAt: new Date(row.declared_at) };
}
