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
  /**
   * Optional: stores the entries of a batch (`DeciderTransaction.batch`) at once, in their order,
   * with set-based statements; one answer per entry, as `save` would give. Without it, a batch
   * calls `save` once per entry.
   */
  saveAll?(entries: readonly SaveEntry<S, E, W>[]): Promise<readonly (void | Saved<S, E>)[]>;
}

/** One entry of a batch for `DeciderSlice.saveAll`: what `save` gets for one command. */
export interface SaveEntry<S, E, W> {
  state: S;
  written: { projectId: string; events: readonly E[]; published: readonly W[] };
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

/** One accepted command of a batch: the state it was decided on, its decision, and what was stored. */
export interface BatchEntry<S, E> {
  /** The state before this command (after the batch's earlier commands on the same key). */
  readonly before: S;
  /** What the decider decided, in memory. */
  readonly decided: Decided<S, E>;
  /** What was stored: set by the batch's `commit` (the winner's state when the store refused). */
  stored: Decided<S, E> | null;
}

/**
 * The one decider transaction (docs/decider-kit.md), inside the caller's database transaction:
 * the caller loads and locks the state, then `decide` → evolve → save → outbox rows of the
 * published events, all committed together. A refusal writes nothing. `commit` does the second
 * half for events a handler already decided in several steps (`decideAndFold`). `batch` does the
 * same for many commands at once (a group commit): each is decided in memory on the state the
 * batch's earlier commands left on its key, exactly as if each had had a transaction of its own,
 * one after the other; then everything accepted is saved together. A single command is a batch
 * of one.
 */
export class DeciderTransaction<C, S, E extends DomainEvent, W extends WireEvent = WireEvent> {
  constructor(
    private readonly slice: DeciderSlice<C, S, E, W>,
    private readonly outbox: OutboxWriter,
  ) {}

  async decide(command: C, state: S, now: Date): Promise<Decided<S, E> | Refusal> {
    const batch = this.batch(new Map([['', state]]));
    const entry = batch.decide('', command, now);
    if (isRefusal(entry)) return entry;
    await batch.commit();
    return entry.stored!;
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
    const batch = this.batch(new Map([['', state]]));
    const entry = batch.record('', events);
    await batch.commit();
    return entry.stored!;
  }

  /** A batch of commands over the given states by key (a key not given starts at `initialState`). */
  batch(states: ReadonlyMap<string, S> = new Map()): DeciderBatch<C, S, E, W> {
    return new DeciderBatch(this.slice, this.outbox, states);
  }
}

/**
 * Commands decided one after the other in memory, then saved at once (`DeciderSlice.saveAll`) and
 * published, each to its own outbox (a unit of a group keeps its correlation). Commands with the
 * same key see each other's events, in the order they were decided; the refused ones write
 * nothing. A slice whose store may refuse a write (`Saved`) gets its say per entry.
 */
export class DeciderBatch<C, S, E extends DomainEvent, W extends WireEvent = WireEvent> {
  private readonly states: Map<string, S>;
  private readonly entries: { entry: BatchEntry<S, E>; outbox: OutboxWriter }[] = [];

  constructor(
    private readonly slice: DeciderSlice<C, S, E, W>,
    private readonly outbox: OutboxWriter,
    states: ReadonlyMap<string, S>,
  ) {
    this.states = new Map(states);
  }

  /** The state of `key` after the commands decided so far. */
  stateOf(key: string): S {
    return this.states.has(key) ? this.states.get(key)! : this.slice.decider.initialState;
  }

  /** Decides `command` on the state of `key`; accepted, it is saved at `commit`. */
  decide(key: string, command: C, now: Date, outbox = this.outbox): BatchEntry<S, E> | Refusal {
    const decision = this.slice.decider.decide(command, this.stateOf(key), now);
    if (isRefusal(decision)) return decision;
    return this.record(key, decision, outbox);
  }

  /** Adds events already decided on the state of `key`. */
  record(key: string, events: readonly E[], outbox = this.outbox): BatchEntry<S, E> {
    const before = this.stateOf(key);
    const state = fold(this.slice.decider, events, before);
    this.states.set(key, state);
    const entry: BatchEntry<S, E> = { before, decided: { state, events: [...events] }, stored: null };
    this.entries.push({ entry, outbox });
    return entry;
  }

  /** Saves every entry with events (one `saveAll`), queues their outbox rows, and sets `stored`. */
  async commit(): Promise<void> {
    const toSave: {
      entry: BatchEntry<S, E>;
      outbox: OutboxWriter;
      projectId: string;
      mapped: { event: E; wire: W | null }[];
      published: W[];
    }[] = [];
    for (const { entry, outbox } of this.entries.splice(0)) {
      const { state, events } = entry.decided;
      const projectId = events.length === 0 ? null : this.slice.projectOf(state);
      if (projectId === null) {
        entry.stored = { state, events: [...events] };
        continue;
      }
      const mapped = events.map((e) => ({ event: e, wire: this.slice.toWire(e, projectId) }));
      toSave.push({ entry, outbox, projectId, mapped, published: mapped.flatMap((m) => m.wire ?? []) });
    }
    if (toSave.length === 0) return;
    const entries = toSave.map(({ entry, projectId, published }) => ({
      state: entry.decided.state,
      written: { projectId, events: entry.decided.events, published },
    }));
    const saved = this.slice.saveAll
      ? await this.slice.saveAll(entries)
      : await saveOneByOne(this.slice, entries);
    toSave.forEach(({ entry, outbox, projectId, mapped, published }, i) => {
      const result = saved[i];
      if (!result) {
        publish(outbox, projectId, published);
        entry.stored = entry.decided;
        return;
      }
      const stored = new Set<E>(result.events);
      publish(
        outbox,
        projectId,
        mapped.flatMap((m) => (m.wire && stored.has(m.event) ? [m.wire] : [])),
      );
      entry.stored = { state: result.state, events: [...result.events] };
    });
  }
}

async function saveOneByOne<C, S, E extends DomainEvent, W extends WireEvent>(
  slice: DeciderSlice<C, S, E, W>,
  entries: readonly SaveEntry<S, E, W>[],
): Promise<(void | Saved<S, E>)[]> {
  const out: (void | Saved<S, E>)[] = [];
  for (const { state, written } of entries) out.push(await slice.save(state, written));
  return out;
}

function publish<W extends WireEvent>(outbox: OutboxWriter, projectId: string, wire: readonly W[]): void {
  for (const event of wire) {
    outbox.event(event.type, projectId, event.data, {
      occurredAt: event.occurredAt,
      ...(event.eventId ? { eventId: event.eventId } : {}),
    });
  }
}
