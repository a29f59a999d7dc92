import { isRefusal, type Refusal } from './errors';

/**
 * The decider kit, pure part (docs/decider-kit.md): every slice of a service (a gate cycle, a
 * pipeline task, a repo freeze, a question) is a `Decider`. `decide` turns a command and the
 * current state into the events that happened (or a business refusal, a value); `evolve` folds
 * one event into the state; `initialState` is the state before any event. Time comes in as an
 * argument, so deciders stay pure and can live in `domain/` folders. The transaction that loads,
 * decides, evolves, saves and queues the published events is `DeciderTransaction` in
 * `@openq/messaging`; the specs' `given(events).when(command).then(…)` is `@openq/testing/decider`.
 */

/** One thing that happened to a slice: its type, its data, and when. */
export interface DomainEvent<T extends string = string, D = unknown> {
  type: T;
  data: D;
  occurredAt: Date;
}

/** What a decider answers to a command: the events that happened (maybe none), or a refusal. */
export type Decision<E> = E[] | Refusal;

export interface Decider<Command, State, Event extends DomainEvent> {
  readonly initialState: State;
  decide(command: Command, state: State, now: Date): Decision<Event>;
  evolve(state: State, event: Event): State;
}

/** Folds events into a state with the decider's `evolve` (from `initialState` when none is given). */
export function fold<C, S, E extends DomainEvent>(
  decider: Decider<C, S, E>,
  events: readonly E[],
  state: S = decider.initialState,
): S {
  return events.reduce((s, e) => decider.evolve(s, e), state);
}

/**
 * Decides and folds, in memory: the new state and the events, or the refusal. For a handler that
 * decides in several steps before anything is written (it commits all the events at the end).
 */
export function decideAndFold<C, S, E extends DomainEvent>(
  decider: Decider<C, S, E>,
  command: C,
  state: S,
  now: Date,
): { state: S; events: E[] } | Refusal {
  const decision = decider.decide(command, state, now);
  if (isRefusal(decision)) return decision;
  return { state: fold(decider, decision, state), events: decision };
}
