import {
  fold,
  isRefusal,
  type Decider,
  type Decision,
  type DomainEvent,
  type Refusal,
} from '@openq/contracts';

/**
 * The decider specs' helper (docs/decider-kit.md), pure: no NATS, no PostgreSQL, so a unit spec
 * imports it from `@openq/testing/decider`, not from `@openq/testing`.
 *
 *   const { given, history } = deciderSpec(gateCycle, at);
 *   given(events).when(command).then(expectedEvents);
 *   given(events).when(command).then({ reason: 'gate_nao_estacionado' });
 *
 * `given` folds events with the decider's `evolve` from `initialState`; `history(commands)` is the
 * events a run of commands decides (command i at `clock(i)`), for a spec whose past is long.
 */
export function deciderSpec<C, S, E extends DomainEvent>(
  decider: Decider<C, S, E>,
  clock: (step: number) => Date,
) {
  /** The events the commands decide, one after the other; a refused step fails the spec. */
  function history(commands: readonly C[], from: S = decider.initialState): E[] {
    const events: E[] = [];
    let state = from;
    commands.forEach((command, i) => {
      const decision = decider.decide(command, state, clock(i));
      if (isRefusal(decision)) throw new Error(`history step ${i} refused: ${decision.reason}`);
      events.push(...decision);
      state = fold(decider, decision, state);
    });
    return events;
  }

  function given(events: readonly E[], from: S = decider.initialState): Given<C, S, E> {
    return new Given(decider, clock, fold(decider, events, from));
  }

  return { given, history };
}

export class Given<C, S, E extends DomainEvent> {
  constructor(
    private readonly decider: Decider<C, S, E>,
    private readonly clock: (step: number) => Date,
    /** The state the given events fold to. */
    readonly state: S,
  ) {}

  /** Decides the command on the given state, at `at` (a `clock` step, 100 unless said, or a date). */
  when(command: C, at: number | Date = 100): Then<S, E> {
    const now = at instanceof Date ? at : this.clock(at);
    return new Then(this.decider, this.state, this.decider.decide(command, this.state, now));
  }
}

export class Then<S, E extends DomainEvent> {
  constructor(
    private readonly decider: Decider<unknown, S, E>,
    private readonly before: S,
    readonly decision: Decision<E>,
  ) {}

  /** The decided events; a refusal fails the spec. */
  get events(): E[] {
    if (isRefusal(this.decision)) throw new Error(`refused: ${this.decision.reason}`);
    return this.decision;
  }

  get types(): E['type'][] {
    return this.events.map((e) => e.type);
  }

  /** The state after the decided events. */
  get state(): S {
    return fold(this.decider, this.events, this.before);
  }

  /** The refusal; decided events fail the spec. */
  get refusal(): Refusal {
    if (!isRefusal(this.decision)) throw new Error(`not refused: ${this.types.join(', ') || 'no events'}`);
    return this.decision;
  }

  /** Asserts the decision: exactly these events, or a refusal matching the given fields. */
  then(expected: readonly E[] | (Partial<Omit<Refusal, 'reason'>> & { reason: string })): void {
    if (Array.isArray(expected)) expect(this.events).toEqual(expected);
    else expect(this.refusal).toMatchObject(expected);
  }
}
