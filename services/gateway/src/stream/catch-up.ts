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
  const events: LiveEvent[] = [];
  try {
    let pending = created.num_pending;
    const consumer = await nc.jetstream().consumers.get(STREAM, name);
    while (pending > 0 && !options.signal.aborted) {
      if (events.length > options.max) return { events: [], complete: false };
      const batch = await consumer.fetch({
        max_messages: Math.min(BATCH, pending),
        expires: FETCH_EXPIRES_MS,
      });
      let received = 0;
      for await (const m of batch) {
        received++;
        pending = m.info.pending;
        if (m.seq > upTo) {
          pending = 0; // the live tail delivers the rest
          break;
        }
        const event = liveEventOf(m.subject, m.seq, m.data);
        if (event) events.push(event);
      }
      if (received === 0) return { events: [], complete: false };
    }
    return { events, complete: !options.signal.aborted };
  } finally {
    await jsm.consumers.delete(STREAM, name).catch(() => undefined);
  }
}
