import { addBusinessMinutes, businessMsBetween, MINUTE_MS, nextDeliverable } from './business-time';
import { durationMinutes, type ClockPolicy } from './clock-policy';
import type { WorkingTime } from './working-time';

/** What the clock needs to know of a question: its author, when it was born, whether it is open. */
export interface ClockQuestion {
  questionId: string;
  declaredAt: Date;
  /** The session author: the one who must answer, whose business time the clock counts. */
  authorId: string;
  status: 'open' | 'answered' | 'withdrawn';
}

export type ClockActionKind = 'reminder' | 'due' | 'escalation';

/**
 * One notice the clock asks for, its instants in epoch milliseconds (the domain does not touch
 * the `Date` global; `clock-schedule.ts` of the slice gives them as dates). `key` is stable for
 * the question's life (same inputs, same key): the notifier records it once it is sent and never
 * sends it again. A notice only tells: it carries who is late, never an answer.
 */
export interface ClockActionAt {
  key: string;
  questionId: string;
  kind: ClockActionKind;
  /** Reminders count from 1 in the policy's order; the due notice and the escalation are step 1. */
  step: number;
  /** When to tell: inside each recipient's working time, outside their quiet hours. */
  at: number;
  to: string[];
  /** When the question is (or was) due, in the author's business time. */
  dueAt: number;
  /** Escalation only: who is late to answer (the author). */
  late?: string[];
}

/** A notice the clock asks for with its instants as dates (`clock-schedule.ts` of the slice makes them). */
export interface ClockAction extends Omit<ClockActionAt, 'at' | 'dueAt'> {
  /** When to tell: inside each recipient's working time, outside their quiet hours. */
  at: Date;
  /** When the question is (or was) due, in the author's business time. */
  dueAt: Date;
}

export type WorkingTimeOf = (userId: string) => WorkingTime;

const KIND_ORDER: Record<ClockActionKind, number> = { reminder: 0, due: 1, escalation: 2 };

function byTime(a: ClockActionAt, b: ClockActionAt): number {
  return (
    a.at - b.at ||
    KIND_ORDER[a.kind] - KIND_ORDER[b.kind] ||
    a.step - b.step ||
    (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)
  );
}

/** Whom an escalation tells: the named users, or the maintainers the caller resolved; never the author. */
export function escalationRecipients(
  policy: ClockPolicy,
  maintainers: readonly string[],
  authorId: string,
): string[] {
  const named = policy.escalateTo === 'maintainers' ? maintainers : policy.escalateTo.users;
  return [...new Set(named)].filter((user) => user !== authorId).sort();
}

/** The instant the question is due: `dueAfter` business time of the author after the declaration. */
export function dueAtMs(question: ClockQuestion, policy: ClockPolicy, authorTime: WorkingTime): number {
  return addBusinessMinutes(question.declaredAt.getTime(), durationMinutes(policy.dueAfter), authorTime);
}

/**
 * Every notice the clock still owes for an open question, in time order, without those in
 * `alreadySent` (by key). An answered or withdrawn question owes nothing. Deterministic: the same
 * inputs give the same list, so a restart or a redelivery recomputes it instead of storing it.
 * `maintainers` is the project's maintainers, resolved by the caller, for `escalateTo: 'maintainers'`.
 */
export function scheduleAt(
  question: ClockQuestion,
  policy: ClockPolicy,
  workingTimeOf: WorkingTimeOf,
  alreadySent: ReadonlySet<string>,
  maintainers: readonly string[] = [],
): ClockActionAt[] {
  if (question.status !== 'open') return [];
  const { questionId, authorId } = question;
  const declared = question.declaredAt.getTime();
  const authorTime = workingTimeOf(authorId);
  // One walk through the author's calendar for all the marks (business time adds up: a then b
  // is a + b), instead of one walk from the declaration per mark.
  const marks = [
    policy.dueAfter,
    ...policy.reminders,
    ...(policy.escalateAfter ? [policy.escalateAfter] : []),
  ]
    .map(durationMinutes)
    .sort((a, b) => a - b);
  const instantOf = new Map<number, number>();
  let walked = 0;
  let instant = declared;
  for (const mark of marks) {
    instant = addBusinessMinutes(instant, mark - walked, authorTime);
    walked = mark;
    instantOf.set(mark, instant);
  }
  const after = (minutes: number) =>
    instantOf.get(minutes) ?? addBusinessMinutes(declared, minutes, authorTime);
  const due = after(durationMinutes(policy.dueAfter));
  const toAuthor = (at: number) => nextDeliverable(at, authorTime);

  const actions: ClockActionAt[] = policy.reminders.map((reminder, index) => ({
    key: `${questionId}:reminder:${index + 1}`,
    questionId,
    kind: 'reminder',
    step: index + 1,
    at: toAuthor(after(durationMinutes(reminder))),
    to: [authorId],
    dueAt: due,
  }));
  actions.push({
    key: `${questionId}:due:1`,
    questionId,
    kind: 'due',
    step: 1,
    at: toAuthor(due),
    to: [authorId],
    dueAt: due,
  });
  if (policy.escalateAfter) {
    // Nobody hears that the author is late before the author has been told (the due notice and
    // every reminder): each escalation is delivered no earlier than the author's last notice.
    const authorTold = Math.max(...actions.map((action) => action.at));
    const escalation = Math.max(after(durationMinutes(policy.escalateAfter)), authorTold);
    for (const recipient of escalationRecipients(policy, maintainers, authorId)) {
      actions.push({
        key: `${questionId}:escalation:1:${recipient}`,
        questionId,
        kind: 'escalation',
        step: 1,
        at: nextDeliverable(escalation, workingTimeOf(recipient)),
        to: [recipient],
        dueAt: due,
        late: [authorId],
      });
    }
  }
  return actions.filter((action) => !alreadySent.has(action.key)).sort(byTime);
}

export type OverdueState = 'on_time' | 'due_soon' | 'overdue';

/** The last quarter of `dueAfter`, in business time, is "due soon". */
export const DUE_SOON_FRACTION = 0.25;

/**
 * The inbox's marker for an open question at `now`: `overdue` from `dueAt` on, `due_soon` while
 * at most a quarter of `dueAfter` (business time) is left, else `on_time`. A closed question has
 * no marker (null). `workingTime` is the author's.
 */
export function overdueStateAt(
  question: ClockQuestion,
  policy: ClockPolicy,
  workingTime: WorkingTime,
  now: Date,
): { state: OverdueState; dueAt: number } | null {
  if (question.status !== 'open') return null;
  const due = dueAtMs(question, policy, workingTime);
  const at = now.getTime();
  if (at >= due) return { state: 'overdue', dueAt: due };
  const left = businessMsBetween(at, due, workingTime);
  const soon = durationMinutes(policy.dueAfter) * MINUTE_MS * DUE_SOON_FRACTION;
  return { state: left <= soon ? 'due_soon' : 'on_time', dueAt: due };
}
