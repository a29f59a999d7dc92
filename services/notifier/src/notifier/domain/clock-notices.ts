import type { Decider, DomainEvent } from '@openq/contracts';
import type { NotificationClock } from './notification';
import { wallClockText, type ClockAction, type WorkingTime, type WorkingTimeOf } from './clock';
import {
  notifiedQuestion,
  questionBlocks,
  questionWaits,
  type KnownQuestion,
  type PlannedNotification,
} from './recipients';

/*
 * What one tick of the clock does for one open question (issue #17), pure, on the decider kit
 * (`clockNotices` below): the notices whose time has come are given (each key once, ever), the
 * people are told, and the question's next instant is kept so the next ticks skip it until then.
 * A notice only tells: it carries who is late, never an answer.
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
  return wallClockText(dueAt, workingTime.timeZone, 'en-GB');
}

/**
 * The tick's plan at `now` for one open question, from `owed`: every notice its clock still owes,
 * in time order (`schedule` of its policy, the people's working times and the notices given so
 * far). After an outage several notices may be owed to one person at once (two reminders and the
 * due notice): they are all recorded, and the person is told only the latest of them — one
 * message saying where things stand, not three in a row.
 */
export function planClockTick(
  now: Date,
  question: KnownQuestion & { declaredAt: Date },
  owed: readonly ClockAction[],
  workingTimeOf: WorkingTimeOf,
): ClockTickPlan {
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
        questions: [notifiedQuestion(question)],
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

/** The clock of one open question: the notices given so far (keys), and its next instant. */
export interface ClockNotices {
  given: ReadonlySet<string>;
  next: Date | null;
}

/** A tick on one open question: what it owes (`schedule`, with dates), and whom to tell on what clock. */
export interface ClockTick {
  type: 'tick';
  question: KnownQuestion & { declaredAt: Date };
  owed: readonly ClockAction[];
  workingTimeOf: WorkingTimeOf;
}

/** A notice given (recorded); `told` is what its person hears, null when it was coalesced. */
export type ClockNoticeGiven = DomainEvent<
  'clock.notice_given',
  { notice: GivenNotice; told: ToldNotice | null }
>;
/** The question's next instant (null: its clock owes nothing more). */
export type ClockNextPlanned = DomainEvent<'clock.next_planned', { questionId: string; next: Date | null }>;
export type ClockNoticeEvent = ClockNoticeGiven | ClockNextPlanned;

/** Decides a tick: each notice owed by `now` and not given yet, who is told, the next instant. */
export function decideClockTick(command: ClockTick, state: ClockNotices, now: Date): ClockNoticeEvent[] {
  const owed = command.owed.filter((action) => !state.given.has(action.key));
  const plan = planClockTick(now, command.question, owed, command.workingTimeOf);
  const told = new Map(plan.told.map((t) => [t.key, t]));
  return [
    ...plan.given.map((notice): ClockNoticeGiven => ({
      type: 'clock.notice_given',
      data: { notice, told: told.get(notice.key) ?? null },
      occurredAt: now,
    })),
    {
      type: 'clock.next_planned',
      data: { questionId: command.question.questionId, next: plan.next },
      occurredAt: now,
    },
  ];
}

export function evolveClockNotices(state: ClockNotices, event: ClockNoticeEvent): ClockNotices {
  if (event.type === 'clock.next_planned') return { ...state, next: event.data.next };
  return { ...state, given: new Set([...state.given, event.data.notice.key]) };
}

/** The clock notices of a question on the decider kit; a question with none given yet starts here. */
export const clockNotices: Decider<ClockTick, ClockNotices, ClockNoticeEvent> = {
  initialState: { given: new Set(), next: null },
  decide: decideClockTick,
  evolve: evolveClockNotices,
};

/**
 * The rows a tick's events write (`clock_notice`, the deliveries, `next_clock_at`): the notices
 * given, the people told (in the order each person was first owed something), the next instant.
 */
export function clockTickPlanOf(events: readonly ClockNoticeEvent[]): ClockTickPlan {
  const given: GivenNotice[] = [];
  const toldFor = new Map<string, ToldNotice | null>();
  let next: Date | null = null;
  for (const event of events) {
    if (event.type === 'clock.next_planned') {
      next = event.data.next;
      continue;
    }
    const { notice, told } = event.data;
    given.push(notice);
    if (!toldFor.has(notice.recipientUserId)) toldFor.set(notice.recipientUserId, null);
    if (told) toldFor.set(notice.recipientUserId, told);
  }
  return { given, told: [...toldFor.values()].filter((t): t is ToldNotice => t !== null), next };
}
