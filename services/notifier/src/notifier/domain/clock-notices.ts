import type { NotificationClock } from '../adapters/channels/channel';
import { schedule, type ClockAction } from '../clock-schedule';
import { type ClockPolicy, type ClockQuestion, type WorkingTime, type WorkingTimeOf } from './clock';
import {
  asNotificationQuestion,
  questionBlocks,
  questionWaits,
  type KnownQuestion,
  type PlannedNotification,
} from './recipients';

/*
 * What one tick of the clock does for one open question (issue #17), pure: the notices whose
 * time has come are recorded (each key once), the people are told, and the question's next
 * instant is kept so the next ticks skip it until then. A notice only tells: it carries who is
 * late, never an answer.
 */

/** One notice given (a `clock_notice` row): recorded even when nobody is told it (coalesced). */
export interface GivenNotice {
  key: string;
  questionId: string;
  kind: ClockAction['kind'];
  step: number;
  recipientUserId: string;
  dueAt: Date;
  at: Date;
  /** Caught up together with a later notice to the same person: recorded, not told. */
  coalesced: boolean;
}

/** One person told about one question, with the key of the notice it carries (its delivery's event). */
export interface ToldNotice {
  key: string;
  planned: PlannedNotification & { clock: NotificationClock };
}

export interface ClockTickPlan {
  given: GivenNotice[];
  told: ToldNotice[];
  /** The next instant this question's clock has something to say; null when it owes nothing more. */
  next: Date | null;
}

const NOTICE_KINDS = {
  reminder: 'question_reminder',
  due: 'question_due',
  escalation: 'question_escalated',
} as const;

/** `dueAt` on the person's wall clock, in words: `Wed 2 Dec, 17:00 (America/Sao_Paulo)`. */
export function dueText(dueAt: Date, workingTime: WorkingTime): string {
  const local = new Intl.DateTimeFormat('en-GB', {
    timeZone: workingTime.timeZone,
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(dueAt);
  return `${local} (${workingTime.timeZone})`;
}

/**
 * The tick's plan at `now` for one open question of a project with `policy`. After an outage
 * several notices may be owed to one person at once (two reminders and the due notice): they
 * are all recorded, and the person is told only the latest of them — one message saying where
 * things stand, not three in a row.
 */
export function planClockTick(
  now: Date,
  question: KnownQuestion & { declaredAt: Date },
  policy: ClockPolicy,
  workingTimeOf: WorkingTimeOf,
  alreadyGiven: ReadonlySet<string>,
  maintainers: readonly string[],
): ClockTickPlan {
  const clockQuestion: ClockQuestion = {
    questionId: question.questionId,
    declaredAt: question.declaredAt,
    authorId: question.sessionAuthorId,
    status: 'open',
  };
  const owed = schedule(clockQuestion, policy, workingTimeOf, alreadyGiven, maintainers);
  const due = owed.filter((action) => action.at.getTime() <= now.getTime());
  const later = owed.filter((action) => action.at.getTime() > now.getTime());

  // Actions come in time order and each has one recipient: the last one per person is told.
  const lastFor = new Map<string, ClockAction>();
  for (const action of due) lastFor.set(action.to[0]!, action);

  const given: GivenNotice[] = due.map((action) => ({
    key: action.key,
    questionId: action.questionId,
    kind: action.kind,
    step: action.step,
    recipientUserId: action.to[0]!,
    dueAt: action.dueAt,
    at: action.at,
    coalesced: lastFor.get(action.to[0]!) !== action,
  }));
  const told: ToldNotice[] = [...lastFor.values()].map((action) => {
    const recipient = action.to[0]!;
    return {
      key: action.key,
      planned: {
        recipientUserId: recipient,
        kind: NOTICE_KINDS[action.kind],
        questions: [asNotificationQuestion(question)],
        blocks: questionBlocks(question),
        waits: questionWaits(question),
        clock: {
          dueAt: action.dueAt.toISOString(),
          dueText: dueText(action.dueAt, workingTimeOf(recipient)),
          timeZone: workingTimeOf(recipient).timeZone,
          step: action.step,
          ...(action.late ? { late: action.late } : {}),
        },
      },
    };
  });
  return { given, told, next: later[0]?.at ?? null };
}
