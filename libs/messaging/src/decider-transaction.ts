import { fold, isRefusal, type Decider, type DomainEvent, type Refusal } from '@openq/contracts';
import type { OutboxWriter } from './outbox';

/** A published event as it goes to the outbox: wire type and payload, when, and a fixed id if any. */
export interface WireEvent<T extends string = string, D extends object = object> {
  type: T;
  data: D;
  occurredAt: Date;
  /** A derived id, for an event that must be one message however often it is decided. */
  eventId?: string;
}

/**
 * What a slice tells the decider transaction: its decider, where its state is stored, and the
 * map from its domain events to the wire (an internal event maps to null: it only changes state).
 */
export interface DeciderSlice<C, S, E extends DomainEvent, W extends WireEvent = WireEvent> {
  readonly decider: Decider<C, S, E>;
  /** The project whose stream the published events go to; null when there is nothing to keep. */
  projectOf(state: S): string | null;
  /** The domain → wire map of the slice. */
  toWire(event: E, projectId: string): W | null;
  /** Stores the new state (and whatever is kept with what was published), in the caller's transaction. */
  save(
    state: S,
    written: { projectId: string; events: readonly E[]; published: readonly W[] },
  ): Promise<void>;
}

export interface Decided<S, E> {
  state: S;
  events: E[];
}

/**
 * The one decider transaction (docs/decider-kit.md), inside the caller's database transaction:
 * the caller loads and locks the state, then `decide` → evolve → save → outbox rows of the
 * published events, all committed together. A refusal writes nothing. `commit` does the second
 * half for events a handler already decided in several steps (`decideAndFold`).
 */
export class DeciderTransaction<C, S, E extends DomainEvent, W extends WireEvent = WireEvent> {
  constructor(
    private readonly slice: DeciderSlice<C, S, E, W>,
    private readonly outbox: OutboxWriter,
  ) {}

  async decide(command: C, state: S, now: Date): Promise<Decided<S, E> | Refusal> {
    const decision = this.slice.decider.decide(command, state, now);
    if (isRefusal(decision)) return decision;
    return this.commit(state, decision);
  }

  /** `decide` for a command its decider never refuses: a refusal here is a bug, and throws. */
  async decideAccepted(command: C, state: S, now: Date): Promise<Decided<S, E>> {
    const decided = await this.decide(command, state, now);
    if (isRefusal(decided)) throw new Error(`command refused: ${decided.reason}: ${decided.message}`);
    return decided;
  }

  /** Evolves, saves and publishes events already decided. No events: nothing is written. */
  async commit(state: S, events: readonly E[]): Promise<Decided<S, E>> {
    if (events.length === 0) return { state, events: [] };
    const next = fold(this.slice.decider, events, state);
    const projectId = this.slice.projectOf(next);
    if (projectId === null) return { state: next, events: [...events] };
    const wire = events.flatMap((e) => this.slice.toWire(e, projectId) ?? []);
    await this.slice.save(next, { projectId, events, published: wire });
    for (const event of wire) {
      this.outbox.event(event.type, projectId, event.data, {
        occurredAt: event.occurredAt,
        ...(event.eventId ? { eventId: event.eventId } : {}),
      });
    }
    return { state: next, events: [...events] };
  }
}
