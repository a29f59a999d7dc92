import {
  dueAtMs,
  overdueStateAt,
  scheduleAt,
  type ClockAction,
  type ClockActionAt,
  type ClockPolicy,
  type ClockQuestion,
  type OverdueState,
  type WorkingTime,
  type WorkingTimeOf,
} from './domain/clock';

/*
 * The clock's schedule with its instants as dates: the pure domain (`domain/clock/schedule.ts`)
 * computes on epoch milliseconds, since it may not touch the `Date` global; this is its edge for
 * the handlers, the queries and the rows, which speak `Date`. No clock is read here either.
 */

export { escalationRecipients, type ClockAction, type ClockQuestion } from './domain/clock';

const asDates = (action: ClockActionAt): ClockAction => ({
  ...action,
  at: new Date(action.at),
  dueAt: new Date(action.dueAt),
});

/** The instant the question is due: `dueAfter` business time of the author after the declaration. */
export function dueAt(question: ClockQuestion, policy: ClockPolicy, authorTime: WorkingTime): Date {
  return new Date(dueAtMs(question, policy, authorTime));
}

/** Every notice the clock still owes for an open question, in time order (`scheduleAt`). */
export function schedule(
  question: ClockQuestion,
  policy: ClockPolicy,
  workingTimeOf: WorkingTimeOf,
  alreadySent: ReadonlySet<string>,
  maintainers: readonly string[] = [],
): ClockAction[] {
  return scheduleAt(question, policy, workingTimeOf, alreadySent, maintainers).map(asDates);
}

/** The notices whose time has come at `now` and that were not sent yet. Grows with `now`. */
export function dueActions(
  now: Date,
  question: ClockQuestion,
  policy: ClockPolicy,
  workingTimeOf: WorkingTimeOf,
  alreadySent: ReadonlySet<string>,
  maintainers: readonly string[] = [],
): ClockAction[] {
  return schedule(question, policy, workingTimeOf, alreadySent, maintainers).filter(
    (action) => action.at.getTime() <= now.getTime(),
  );
}

/** The inbox's marker for an open question at `now` (`overdueStateAt`), its due instant as a date. */
export function overdueState(
  question: ClockQuestion,
  policy: ClockPolicy,
  workingTime: WorkingTime,
  now: Date,
): { state: OverdueState; dueAt: Date } | null {
  const marker = overdueStateAt(question, policy, workingTime, now);
  return marker && { state: marker.state, dueAt: new Date(marker.dueAt) };
}
