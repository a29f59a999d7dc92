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
  /**
   * Stores the new state (and whatever is kept with what was published), in the caller's
   * transaction. Nothing returned: all of it was stored. A slice whose store may refuse the write
   * (a unique index that another transaction won) returns what it actually stored instead: the
   * events written (the very objects it was given, some or none) and the state that stands (the
   * winner's); only those events get outbox rows.
   */
  save(
    state: S,
    written: { projectId: string; events: readonly E[]; published: readonly W[] },
  ): Promise<void | Saved<S, E>>;
}

/** What a slice's `save` stored, when it was not all it was given (see `DeciderSlice.save`). */
export interface Saved<S, E> {
  state: S;
  events: readonly E[];
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

  /**
   * Evolves, saves and publishes events already decided. No events: nothing is written. The
   * result is what was saved: when `save` says it stored less, its state and events, and only
   * those events are published.
   */
  async commit(state: S, events: readonly E[]): Promise<Decided<S, E>> {
    if (events.length === 0) return { state, events: [] };
    const next = fold(this.slice.decider, events, state);
    const projectId = this.slice.projectOf(next);
    if (projectId === null) return { state: next, events: [...events] };
    const mapped = events.map((e) => ({ event: e, wire: this.slice.toWire(e, projectId) }));
    const published = mapped.flatMap((m) => m.wire ?? []);
    const saved = await this.slice.save(next, { projectId, events, published });
    if (!saved) {
      this.publish(projectId, published);
      return { state: next, events: [...events] };
    }
    const stored = new Set<E>(saved.events);
    this.publish(
      projectId,
      mapped.flatMap((m) => (m.wire && stored.has(m.event) ? [m.wire] : [])),
    );
    return { state: saved.state, events: [...saved.events] };
  }

  private publish(projectId: string, wire: readonly W[]): void {
    for (const event of wire) {
      this.outbox.event(event.type, projectId, event.data, {
        occurredAt: event.occurredAt,
        ...(event.eventId ? { eventId: event.eventId } : {}),
      });
    }
  }
}
