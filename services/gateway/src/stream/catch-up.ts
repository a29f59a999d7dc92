import { AckPolicy, DeliverPolicy, nanos, nuid, type NatsConnection } from 'nats';
import { STREAMS } from '@openq/contracts';
import { LIVE_FAMILIES, familyFilter, liveEventOf, type LiveEvent } from './live-events';

const STREAM = STREAMS.openqEvents.name;
const BATCH = 256;
/** A fetch that brings nothing for this long while messages are pending ends the catch-up as incomplete. */
const FETCH_EXPIRES_MS = 5000;

export interface Missed {
  /** The project's live events with `after < seq <= upTo`, in stream order. */
  events: LiveEvent[];
  /**
   * False when the missed events cannot all be replayed: more than the ceiling, some expired
   * from the stream, or the server stopped answering. The client is then told to reload.
   */
  complete: boolean;
}

export interface CatchUpOptions {
  /** At most this many events are replayed; more means `complete: false`. */
  max: number;
  signal: AbortSignal;
}

/**
 * What a reconnecting client missed: its project's events after its `Last-Event-ID` and up to
 * the live tail's position. One short-lived ephemeral consumer per family (filter
 * `<family>.*.<projectId>`, from `after + 1`), so the server filters and only this project's
 * events travel; each is read up to `upTo`, then deleted, and the four are merged by sequence —
 * exact, because their end is known.
 */
export async function readMissed(
  nc: NatsConnection,
  projectId: string,
  after: number,
  upTo: number,
  options: CatchUpOptions,
): Promise<Missed> {
  if (upTo <= after) return { events: [], complete: true };
  const jsm = await nc.jetstreamManager();
  const info = await jsm.streams.info(STREAM);
  // Messages in (after, first_seq) are gone (stream limits): whether some were ours is unknowable.
  if (info.state.first_seq > after + 1) return { events: [], complete: false };
  const parts = await Promise.all(
    LIVE_FAMILIES.map((family) => readFamily(nc, familyFilter(family, projectId), after + 1, upTo, options)),
  );
  const events = parts.flatMap((p) => p.events).sort((a, b) => a.seq - b.seq);
  const complete = parts.every((p) => p.complete) && events.length <= options.max;
  return complete ? { events, complete } : { events: [], complete };
}

async function readFamily(
  nc: NatsConnection,
  filter: string,
  from: number,
  upTo: number,
  options: CatchUpOptions,
): Promise<Missed> {
  const read = await readStored(nc, filter, from, { upTo, take: options.max + 1, signal: options.signal });
  if (!read.complete || read.messages.length > options.max) return { events: [], complete: false };
  const events = read.messages.flatMap((m) => liveEventOf(m.subject, m.seq, m.data) ?? []);
  return { events, complete: true };
}

/** One message as OPENQ_EVENTS stores it. */
export interface StoredMessage {
  seq: number;
  subject: string;
  data: Uint8Array;
}

export interface ReadStoredOptions {
  /** Messages past this sequence are not read (the live tail has them). */
  upTo: number;
  /** At most this many are read. */
  take: number;
  signal?: AbortSignal;
}

/**
 * The stored messages of OPENQ_EVENTS on `filter` from sequence `from`, oldest first, up to
 * `upTo` and at most `take` of them: one short-lived ephemeral consumer, read, then deleted.
 * `complete: false` when the server stopped answering or the read was aborted. The SSE catch-up
 * (`readMissed`) and the engines' catch-up route (issue #34) both read through it.
 */
export async function readStored(
  nc: NatsConnection,
  filter: string,
  from: number,
  options: ReadStoredOptions,
): Promise<{ messages: StoredMessage[]; complete: boolean }> {
  const jsm = await nc.jetstreamManager();
  const name = `gateway_catchup_${nuid.next()}`;
  const created = await jsm.consumers.add(STREAM, {
    name,
    ack_policy: AckPolicy.None,
    deliver_policy: DeliverPolicy.StartSequence,
    opt_start_seq: from,
    filter_subject: filter,
    inactive_threshold: nanos(30_000),
  });
  const messages: StoredMessage[] = [];
  try {
    let pending = created.num_pending;
    const consumer = await nc.jetstream().consumers.get(STREAM, name);
    while (pending > 0 && messages.length < options.take && !options.signal?.aborted) {
      const batch = await consumer.fetch({
        max_messages: Math.min(BATCH, pending, options.take - messages.length),
        expires: FETCH_EXPIRES_MS,
      });
      let received = 0;
      for await (const m of batch) {
        received++;
        pending = m.info.pending;
        if (m.seq > options.upTo) {
          pending = 0; // the live tail delivers the rest
          break;
        }
        messages.push({ seq: m.seq, subject: m.subject, data: m.data });
      }
      if (received === 0) return { messages: [], complete: false };
    }
    return { messages, complete: options.signal?.aborted !== true };
  } finally {
    await jsm.consumers.delete(STREAM, name).catch(() => undefined);
  }
}
