import {
  AckPolicy,
  DeliverPolicy,
  nanos,
  nuid,
  type JetStreamManager,
  type JsMsg,
  type NatsConnection,
  type StreamInfo,
} from 'nats';
import type { DataSource, EntityManager } from 'typeorm';
import {
  AgentEvent,
  OpenqEvent,
  STREAMS,
  eventFilter,
  eventRegistry,
  streamOfType,
  type EventEnvelope,
} from '@openq/contracts';
import { encodeJson, isRetryLater, parseEventMessage } from '@openq/messaging';
import { applyContextFact, type ContextFactType } from './context-facts';

/**
 * Every type a replay applies: those the live consumers apply, and this service's own
 * `story.corrected` and `story.archived`, which the commands wrote live (`projectStoryCorrected`,
 * `projectStoryArchived`).
 */
export const REPLAYED_TYPES: readonly ContextFactType[] = [
  AgentEvent.StoryUpserted,
  AgentEvent.TaskStatus,
  OpenqEvent.DecisionRecorded,
  OpenqEvent.QuestionDeclared,
  OpenqEvent.QuestionWithdrawn,
  OpenqEvent.QuestionAnswered,
  OpenqEvent.DecisionSuperseded,
  OpenqEvent.GateRescueParked,
  OpenqEvent.GateResumed,
  'question.joined',
  'question.precedent_offered',
  OpenqEvent.StoryCorrected,
  OpenqEvent.StoryArchived,
];

/** The read models, in the order the correction command locks them (story, task, question). */
const TABLES = [
  'context_story',
  'context_task',
  'context_question',
  'context_decision',
  'analytics_question',
  'analytics_asker_event',
  'analytics_gate_event',
] as const;

export interface ContextReplayOptions {
  /** Rebuild even when a stream no longer starts at sequence 1 (older facts are lost). */
  allowPartial?: boolean;
  /** Messages per pull (default 256). */
  batchSize?: number;
  /** Told about each message skipped (refused by validation, or failing in its projector). */
  onSkip?: (skip: SkippedMessage) => void;
}

export interface SkippedMessage {
  stream: string;
  /** null: a correction taken from the outbox (not yet in the stream's range). */
  seq: number | null;
  type: ContextFactType;
  /** `json_invalido`, `envelope_invalido`, `payload_invalido` … as the consumer's dead letter; `falha_no_tratamento` for a projector error. */
  reason: string;
  message: string;
}

export interface TypeCounts {
  /** Messages read from the stream up to the replay's end (and, for corrections, from the outbox). */
  read: number;
  applied: number;
  /** Refused by the same validation the live consumer applies (it dead-letters them). */
  invalid: number;
  /** An event id already applied for this type (the live inbox acks those without effect). */
  duplicates: number;
  /** Valid, but the projector failed (live: retried, then dead-lettered `falha_no_tratamento`). */
  failed: number;
}

export interface StreamCoverage {
  stream: string;
  /** The stream's first sequence when the replay started (1 unless messages aged out or were purged). */
  firstSeq: number;
  /** The stream's last sequence when the replay started: nothing after it was read. */
  lastSeq: number;
  /** When the first message still in the stream was stored (null when the stream is empty). */
  firstAt: string | null;
  /** Older messages had left the stream: the rebuild lacks their facts (`allowPartial`). */
  partial: boolean;
  /** Messages of the replayed types read from it. */
  messages: number;
}

export interface ContextReplayResult {
  types: Record<ContextFactType, TypeCounts>;
  streams: StreamCoverage[];
  /** Corrections committed but not in the streams' range (still in the outbox, or published after its end). */
  correctionsFromOutbox: number;
  /** The same for archives (`story.archived`). */
  archivesFromOutbox: number;
  ms: number;
}

/** A stream no longer holds its first messages: rebuilding from it would drop their facts. */
export class PartialReplayRefusedError extends Error {
  override readonly name = 'PartialReplayRefusedError';

  constructor(readonly coverage: StreamCoverage) {
    const gone = coverage.firstSeq - 1;
    const first =
      coverage.firstAt === null
        ? `holds no message (all ${gone} aged out or were purged)`
        : `starts at sequence ${coverage.firstSeq} (stored ${coverage.firstAt}): messages 1..${gone} aged out or were purged`;
    super(
      `refusing to rebuild the context read models: stream ${coverage.stream} ${first}, so their facts would be lost. ` +
        `Rebuild from what is left only with allowPartial (openq replay context --allow-partial).`,
    );
  }
}

const DEFAULT_BATCH = 256;
/** A pull that brings nothing for this long while messages are pending means the server stopped answering. */
const FETCH_EXPIRES_MS = 5000;
/** The server drops a replay consumer left behind (a crashed replay) after this long without a pull. */
const CONSUMER_INACTIVE_MS = 5 * 60_000;

/**
 * Rebuilds `context_story`, `context_task`, `context_decision` and `context_question` from the
 * streams (ARCHITECTURE rule 5), in ONE transaction: the tables are locked, the streams' ends read,
 * the tables emptied, then each type the service consumes (and its own `story.corrected`) is read
 * from the stream's first message up to that end, parsed and validated exactly as the live
 * consumer does (`parseEventMessage` with the same registry) and applied through the same
 * projector with the same version (`projectFact`). Readers and the live consumers wait on the locks
 * and then see the new models whole; a live consumer that applies a replayed fact again changes
 * nothing (every projector is idempotent and order-safe). One row per stream in
 * `context_replay_checkpoint` records what was covered.
 *
 * Facts of one type are applied in stream order, and the types one after the other: the tables
 * are order-safe, except for a correction, which applies its changes over the story's content as
 * the command saw it. So corrections go in between the story upserts by time: one is applied
 * before the first upsert stored in the stream after its `occurredAt` (the command's clock).
 * Corrections committed but not in the range read (the relay had not published them yet) come from
 * this service's outbox, so none is lost.
 *
 * Refuses (`PartialReplayRefusedError`) when a stream no longer starts at sequence 1, unless
 * `allowPartial`.
 */
export async function replayContextReadModels(
  dataSource: DataSource,
  nc: NatsConnection,
  options: ContextReplayOptions = {},
): Promise<ContextReplayResult> {
  const started = Date.now();
  const jsm = await nc.jetstreamManager();
  const streamNames = [...new Set(REPLAYED_TYPES.map((type) => streamNameOf(type)))];
  // Checked before any lock is taken, and again under the locks (the range may have moved).
  for (const name of streamNames) refuseIfPartial(await streamCoverage(jsm, name), options);

  return dataSource.transaction(async (manager) => {
    // Locked first, ends read second: a live transaction committed before the lock applied a message
    // at or below the end (so the replay reads it again); any later one waits and applies over the result.
    await manager.query(`LOCK TABLE ${TABLES.join(', ')} IN ACCESS EXCLUSIVE MODE`);
    const streams = new Map<string, StreamCoverage>();
    for (const name of streamNames) {
      const coverage = await streamCoverage(jsm, name);
      refuseIfPartial(coverage, options);
      streams.set(name, coverage);
    }
    await manager.query(`TRUNCATE ${TABLES.join(', ')}`);
    // One savepoint, moved forward after each fact: a fact whose projector fails is undone alone.
    await manager.query(`SAVEPOINT replay_fact`);

    const replays = new Map(REPLAYED_TYPES.map((type) => [type, new TypeReplay(type, manager, options)]));
    const read = (type: ContextFactType, visit: (m: JsMsg) => Promise<void>) =>
      readType(nc, jsm, type, streams.get(streamNameOf(type))!, options.batchSize ?? DEFAULT_BATCH, visit);

    // Corrections first into memory (few: people make them), then interleaved with the upserts.
    const corrections = replays.get(OpenqEvent.StoryCorrected)!;
    const pending: { envelope: EventEnvelope; seq: number | null; at: number }[] = [];
    await read(OpenqEvent.StoryCorrected, async (m) => {
      const envelope = corrections.accept(m, m.seq);
      if (envelope) pending.push({ envelope, seq: m.seq, at: Date.parse(envelope.occurredAt) });
    });
    // A correction committed before the lock but published after the stream's end was read (or not
    // yet: the relay lags or is down) is in the model live but not in the range: its outbox row has it.
    const unpublishedCorrections = await unpublishedOwnFacts(
      manager,
      corrections,
      new Set(pending.map((p) => p.envelope.eventId)),
    );
    for (const envelope of unpublishedCorrections)
      pending.push({ envelope, seq: null, at: Date.parse(envelope.occurredAt) });
    const fromOutbox = unpublishedCorrections.read;
    let nextCorrection = 0;
    const correctUpTo = async (storedAt: number) => {
      for (; nextCorrection < pending.length && pending[nextCorrection]!.at <= storedAt; nextCorrection++) {
        await corrections.apply(pending[nextCorrection]!.envelope, pending[nextCorrection]!.seq);
      }
    };
    const upserts = replays.get(AgentEvent.StoryUpserted)!;
    await read(AgentEvent.StoryUpserted, async (m) => {
      await correctUpTo(m.info.timestampNanos / 1e6);
      const envelope = upserts.accept(m, m.seq);
      if (envelope) await upserts.apply(envelope, m.seq);
    });
    await correctUpTo(Infinity);

    // Archives write only the versioned `archived` flag: order-safe, so after every upsert is fine.
    let archivesFromOutbox = 0;
    for (const type of REPLAYED_TYPES) {
      if (type === AgentEvent.StoryUpserted || type === OpenqEvent.StoryCorrected) continue;
      const replay = replays.get(type)!;
      const seen = new Set<string>();
      await read(type, async (m) => {
        const envelope = replay.accept(m, m.seq);
        if (!envelope) return;
        seen.add(envelope.eventId);
        await replay.apply(envelope, m.seq);
      });
      if (type !== OpenqEvent.StoryArchived) continue;
      const unpublished = await unpublishedOwnFacts(manager, replay, seen);
      for (const envelope of unpublished) await replay.apply(envelope, null);
      archivesFromOutbox = unpublished.read;
    }
    await manager.query(`RELEASE SAVEPOINT replay_fact`);

    const types = {} as Record<ContextFactType, TypeCounts>;
    for (const [type, replay] of replays) {
      types[type] = replay.counts;
      const outboxRead =
        type === OpenqEvent.StoryCorrected
          ? fromOutbox
          : type === OpenqEvent.StoryArchived
            ? archivesFromOutbox
            : 0;
      streams.get(streamNameOf(type))!.messages += replay.counts.read - outboxRead;
    }
    for (const c of streams.values()) {
      await manager.query(
        `INSERT INTO context_replay_checkpoint (stream, first_seq, last_seq, messages, partial, replayed_at)
         VALUES ($1, $2, $3, $4, $5, clock_timestamp())
         ON CONFLICT (stream) DO UPDATE SET first_seq = EXCLUDED.first_seq, last_seq = EXCLUDED.last_seq,
           messages = EXCLUDED.messages, partial = EXCLUDED.partial, replayed_at = EXCLUDED.replayed_at`,
        [c.stream, c.firstSeq, c.lastSeq, c.messages, c.partial],
      );
    }
    return {
      types,
      streams: [...streams.values()],
      correctionsFromOutbox: fromOutbox,
      archivesFromOutbox,
      ms: Date.now() - started,
    };
  });
}

/**
 * This service's own facts (`story.corrected`, `story.archived`) committed but not in the range
 * read from the stream (the relay had not published them yet): their outbox rows have them, so
 * none is lost. Returns the valid ones; `read` counts every row taken.
 */
async function unpublishedOwnFacts(
  manager: EntityManager,
  replay: TypeReplay,
  inRange: ReadonlySet<string>,
): Promise<EventEnvelope[] & { read: number }> {
  const rows: { subject: string; envelope: unknown }[] = await manager.query(
    `SELECT subject, envelope FROM outbox WHERE subject LIKE $1 ORDER BY id`,
    [`${replay.type}.%`],
  );
  const found = Object.assign([] as EventEnvelope[], { read: 0 });
  for (const row of rows) {
    if (inRange.has((row.envelope as EventEnvelope).eventId)) continue;
    found.read++;
    const envelope = replay.accept({ subject: row.subject, data: encodeJson(row.envelope) }, null);
    if (envelope) found.push(envelope);
  }
  return found;
}

function streamNameOf(type: string): string {
  return STREAMS[streamOfType(type)].name;
}

async function streamCoverage(jsm: JetStreamManager, stream: string): Promise<StreamCoverage> {
  let info: StreamInfo;
  try {
    info = await jsm.streams.info(stream);
  } catch (error) {
    throw new Error(
      `cannot read stream ${stream} (has a service started against this NATS?): ${String(error)}`,
    );
  }
  const { first_seq: firstSeq, last_seq: lastSeq, first_ts: firstTs, messages } = info.state;
  return {
    stream,
    firstSeq,
    lastSeq,
    firstAt: messages > 0 ? firstTs : null,
    partial: firstSeq > 1,
    messages: 0,
  };
}

function refuseIfPartial(coverage: StreamCoverage, options: ContextReplayOptions): void {
  if (coverage.partial && !options.allowPartial) throw new PartialReplayRefusedError(coverage);
}

/** One type's messages as its live consumer treats them: validated, deduplicated by event id, applied. */
class TypeReplay {
  readonly counts: TypeCounts = { read: 0, applied: 0, invalid: 0, duplicates: 0, failed: 0 };
  /** The event ids applied: as the consumer's inbox, a second message with one is skipped. */
  private readonly applied = new Set<string>();
  private readonly stream: string;

  constructor(
    readonly type: ContextFactType,
    private readonly manager: EntityManager,
    private readonly options: ContextReplayOptions,
  ) {
    this.stream = streamNameOf(type);
  }

  /** The message's envelope with its validated `data`; null when the live consumer would dead-letter it. */
  accept(m: { subject: string; data: Uint8Array }, seq: number | null): EventEnvelope | null {
    this.counts.read++;
    const parsed = parseEventMessage(m, eventRegistry);
    if (parsed.ok) return parsed.envelope;
    this.counts.invalid++;
    this.skip(seq, parsed.reason, parsed.message);
    return null;
  }

  async apply(envelope: EventEnvelope, seq: number | null): Promise<void> {
    if (this.applied.has(envelope.eventId)) {
      this.counts.duplicates++;
      return;
    }
    try {
      await applyContextFact(this.manager, this.type, envelope);
      await this.manager.query(`RELEASE SAVEPOINT replay_fact; SAVEPOINT replay_fact`);
    } catch (error) {
      // The database going away ends the replay (its transaction is lost); anything else is this
      // fact's own failure, which the live consumer dead-letters after its retries.
      if (isRetryLater(error)) throw error;
      await this.manager.query(`ROLLBACK TO SAVEPOINT replay_fact`);
      this.counts.failed++;
      this.skip(seq, 'falha_no_tratamento', error instanceof Error ? error.message : String(error));
      return;
    }
    this.applied.add(envelope.eventId);
    this.counts.applied++;
  }

  private skip(seq: number | null, reason: string, message: string): void {
    this.options.onSkip?.({ stream: this.stream, seq, type: this.type, reason, message });
  }
}

/**
 * Hands `visit` each message of `type` (filter `<type>.*`) from the stream's start to
 * `coverage.lastSeq`, in stream order, through a short-lived ephemeral pull consumer.
 */
async function readType(
  nc: NatsConnection,
  jsm: JetStreamManager,
  type: string,
  coverage: StreamCoverage,
  batchSize: number,
  visit: (m: JsMsg) => Promise<void>,
): Promise<void> {
  const { stream, lastSeq } = coverage;
  if (lastSeq === 0) return;
  // A plain ephemeral consumer (ordered consumers need a newer nats-server than 2.9).
  const name = `context_replay_${nuid.next()}`;
  const created = await jsm.consumers.add(stream, {
    name,
    ack_policy: AckPolicy.None,
    deliver_policy: DeliverPolicy.All,
    filter_subject: eventFilter(type),
    inactive_threshold: nanos(CONSUMER_INACTIVE_MS),
  });
  try {
    const consumer = await nc.jetstream().consumers.get(stream, name);
    let pending = created.num_pending;
    while (pending > 0) {
      // Taken whole before it is applied, so a slow batch never races the pull's expiry.
      const batch: JsMsg[] = [];
      for await (const m of await consumer.fetch({
        max_messages: Math.min(batchSize, pending),
        expires: FETCH_EXPIRES_MS,
      })) {
        batch.push(m);
      }
      if (batch.length === 0)
        throw new Error(`stream ${stream} stopped delivering ${type} with ${pending} messages pending`);
      for (const m of batch) {
        if (m.seq > lastSeq) {
          pending = 0; // stored after the replay started: the live consumers apply it
          break;
        }
        pending = m.seq === lastSeq ? 0 : m.info.pending;
        await visit(m);
      }
    }
  } finally {
    await jsm.consumers.delete(stream, name).catch(() => undefined);
  }
}
