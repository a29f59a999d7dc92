import { Logger } from '@nestjs/common';
import type { JsMsg } from 'nats';
import type { DataSource, EntityManager } from 'typeorm';
import {
  followOn,
  STREAMS,
  typeOfSubject,
  validateAs,
  type EventEnvelope,
  type MessageRegistry,
  type RefusalReason,
} from '@openq/contracts';
import { decodeJson, decodeText } from './codec';
import { EventEnvelopeDto } from './envelope.dto';
import { messagingMetrics, secondsSince } from './metrics';
import { OutboxWriter } from './outbox';
import { natsHeaderReader, runInScope, type MessageScope, type ScopeSpan } from './trace-context';
import { isRetryLater } from './retry-later';
import type { Predecessor, SubjectOrder } from './subject-order';

/** What a handler of an inbound event gets: the event and the transaction its effects go in. */
export interface EventContext {
  envelope: EventEnvelope;
  manager: EntityManager;
  outbox: OutboxWriter;
  deliveries: number;
  /** The message's sequence in its stream (the catch-up route's `seq`). */
  streamSeq: number;
  /** What the type's before-transaction step returned (`InboundOptions.prepare`), if it has one. */
  prepared?: unknown;
}

export type EventHandlerFn = (data: unknown, ctx: EventContext) => Promise<unknown>;

export interface InvalidMessage {
  manager: EntityManager;
  outbox: OutboxWriter;
  /** The envelope when its shape was fine and only `data` failed. */
  envelope: EventEnvelope | null;
  reason: string;
  message: string;
}

export interface InboundOptions {
  /** The inbox and dead-letter name of this consumer (the durable name). */
  consumer: string;
  registry?: MessageRegistry;
  /** Runs in the dead-letter transaction when a message is refused (e.g. `question.rejected`). */
  onInvalid?: (invalid: InvalidMessage) => Promise<void>;
  /** Attempts before a message whose handler keeps failing (not transiently) is dead-lettered. */
  maxAttempts?: number;
  backoffMs?: (deliveries: number) => number;
  /** Stream order per subject across the processes sharing the consumer (always set by the transport). */
  order?: SubjectOrder;
  /**
   * Runs before the message's transaction, holding no connection or lock (a call to another
   * service); its result is the handler's `prepared`. It may be run again for the same message.
   * `applied` reads whether this consumer's inbox already has the message (a redelivery).
   */
  prepare?: (envelope: EventEnvelope, applied: () => Promise<boolean>) => Promise<unknown>;
}

/** `defer`: not applied yet, as an earlier message of its subject is pending (the runner parks it and tries again). */
export type Outcome = 'ack' | 'nak' | 'term' | 'defer';

const DEFER_DELAY_MS = 250;
/** Before-transaction steps of one batch run at once (each is typically a call to another service). */
const PREPARE_CONCURRENCY = 16;

export const defaultBackoff = (deliveries: number): number =>
  Math.min(30_000, 200 * 2 ** Math.max(0, deliveries - 1));

/** What `parseEventMessage` makes of a message: its envelope, or why it is refused (dead-lettered). */
export type ParsedEventMessage =
  | { ok: true; envelope: EventEnvelope }
  | { ok: false; reason: RefusalReason; message: string; envelope: EventEnvelope | null };

/**
 * Parses one stream message as every consumer does: JSON, then `checkEventEnvelope` against the
 * message's subject. A refusal names the reason the dead letter records; `envelope` is kept when
 * only `data` failed. Replays of read models use it too, so they refuse exactly what consumers do.
 */
export function parseEventMessage(
  msg: { subject: string; data: Uint8Array },
  registry?: MessageRegistry,
): ParsedEventMessage {
  const decoded = decodeJson(msg.data);
  if (!decoded.ok)
    return { ok: false, reason: 'json_invalido', message: `not JSON: ${decoded.error}`, envelope: null };
  return checkEventEnvelope(decoded.value, msg.subject, registry);
}

/**
 * The one check of an event envelope (SPEC §8), for consumers and for the gateway's events route
 * (SPEC §11.4) alike: the envelope's shape, that it belongs on `subject` (`<type>.<projectId>`),
 * then `data`. What comes from outside (`agent.*`, the engine's stream; the events route takes
 * only those) is validated against the registry (its validated instance replaces `data`). openq's
 * own events (`OPENQ_EVENTS`, published only by openq services from their outbox, SPEC §8) are
 * trusted: their data was checked before it was written, so only the type is looked up and the
 * envelope's shape is checked cheaply, without class-validator. `field` names the first failing
 * field (`data.<field>` for the payload's own).
 */
export function checkEventEnvelope(
  value: unknown,
  subject: string,
  registry?: MessageRegistry,
): ParsedEventMessage & { field?: string } {
  const trusted = isTrustedSubject(subject);
  const shape = trusted ? trustedShape(value) : validateAs(EventEnvelopeDto, value, 'envelope_invalido');
  if (!shape.ok) {
    const field = 'field' in shape ? (shape.field as string | undefined) : undefined;
    return {
      ok: false,
      reason: shape.reason,
      ...(field ? { field } : {}),
      message: shape.message,
      envelope: null,
    };
  }
  const envelope = value as EventEnvelope;
  if (`${envelope.type}.${envelope.projectId}` !== subject) {
    return {
      ok: false,
      reason: 'envelope_invalido',
      field: typeOfSubject(subject) === envelope.type ? 'projectId' : 'type',
      message: `subject ${subject} does not match type ${envelope.type} and projectId`,
      envelope: null,
    };
  }
  if (registry && trusted) {
    if (!registry.get(envelope.type))
      return { ok: false, reason: 'tipo_desconhecido', message: `unknown type ${envelope.type}`, envelope };
  } else if (registry) {
    const data = registry.validate(envelope.type, envelope.data);
    if (!data.ok) {
      const field = data.field === 'type' ? 'type' : `data.${data.field}`;
      return { ok: false, reason: data.reason, field, message: data.message, envelope };
    }
    envelope.data = data.value as Record<string, unknown>;
  }
  return { ok: true, envelope };
}

/** openq's own events: the subjects of `OPENQ_EVENTS`, which only openq services publish (SPEC §8). */
function isTrustedSubject(subject: string): boolean {
  return TRUSTED_PREFIXES.some((prefix) => subject.startsWith(prefix));
}

const TRUSTED_PREFIXES = STREAMS.openqEvents.subjects.map((s) => s.replace(/>$/, ''));

/** The envelope fields a handler reads, checked without class-validator (a trusted message). */
function trustedShape(value: unknown): { ok: true } | { ok: false; reason: RefusalReason; message: string } {
  const e = value as Partial<Record<keyof EventEnvelope, unknown>> | null;
  const fine =
    typeof e === 'object' &&
    e !== null &&
    !Array.isArray(e) &&
    typeof e.eventId === 'string' &&
    typeof e.type === 'string' &&
    typeof e.projectId === 'string' &&
    typeof e.correlationId === 'string' &&
    typeof e.occurredAt === 'string' &&
    typeof e.data === 'object' &&
    e.data !== null &&
    !Array.isArray(e.data);
  return fine
    ? { ok: true }
    : {
        ok: false,
        reason: 'envelope_invalido',
        message: 'not an event envelope (eventId, type, projectId, correlationId, occurredAt, data)',
      };
}

/** Thrown inside a transaction to roll it back: an earlier message of the subject is not settled. */
class PredecessorPending extends Error {
  constructor(readonly predecessor: Predecessor) {
    super(`waiting for ${predecessor.subject} seq ${predecessor.seq}`);
  }
}

class Refused extends Error {
  constructor(
    readonly reason: string,
    message: string,
    readonly envelope: EventEnvelope | null,
  ) {
    super(message);
  }
}

/**
 * Applies one JetStream message exactly once: parse and validate it, then in ONE transaction
 * record its id in the inbox, run the handler and write the handler's outbox rows. A redelivery
 * finds its id in the inbox and is acked without effect. Poison is dead-lettered and terminated.
 */
export class InboundProcessor {
  private readonly logger: Logger;

  constructor(
    private readonly dataSource: DataSource,
    private readonly handler: EventHandlerFn,
    private readonly options: InboundOptions,
  ) {
    this.logger = new Logger(`inbound:${options.consumer}`);
  }

  /**
   * Handles the message as one unit of work: its log lines and the events it causes carry the
   * envelope's correlation id and the message's trace context. Observes the handling time.
   */
  async process(msg: JsMsg): Promise<Outcome> {
    const started = performance.now();
    const type = typeOfSubject(msg.subject);
    let outcome: Outcome = 'nak';
    try {
      const span = this.spanOf(`${type} process`);
      outcome = await runInScope(natsHeaderReader(msg.headers), null, span, async (scope) => {
        const settled = await this.processInTurn(msg, scope);
        scope.span?.setAttribute('openq.outcome', settled);
        return settled;
      });
      return outcome;
    } finally {
      messagingMetrics
        .handlingDuration()
        .observe({ consumer: this.options.consumer, type, outcome }, secondsSince(started));
    }
  }

  /**
   * Processes the message, or says `defer` while an earlier message of its subject is pending
   * elsewhere (another replica, a redelivery): the runner parks it and tries again, so it is
   * never applied out of order and waiting never costs a delivery.
   */
  private async processInTurn(msg: JsMsg, scope: MessageScope): Promise<Outcome> {
    try {
      return await this.processInScope(msg, scope);
    } catch (error) {
      if (!(error instanceof PredecessorPending)) throw error;
      messagingMetrics.orderWaits().inc({ consumer: this.options.consumer });
      this.logger.debug(`${msg.subject} seq ${msg.seq} deferred: ${error.message}`);
      return 'defer';
    }
  }

  private async processInScope(msg: JsMsg, scope: MessageScope): Promise<Outcome> {
    const deliveries = msg.info.deliveryCount;
    let envelope: EventEnvelope;
    try {
      envelope = this.parse(msg);
    } catch (error) {
      if (!(error instanceof Refused)) throw error;
      scope.correlationId = error.envelope?.correlationId ?? null;
      return this.deadLetter(msg, error.reason, error.message, error.envelope);
    }
    scope.correlationId = envelope.correlationId;
    try {
      if (!(await this.apply(msg, envelope, deliveries)))
        messagingMetrics.inboxDuplicates().inc({ consumer: this.options.consumer });
      return 'ack';
    } catch (error) {
      if (error instanceof PredecessorPending) throw error;
      const text = error instanceof Error ? error.message : String(error);
      scope.span?.recordException(error instanceof Error ? error : text);
      if (isRetryLater(error)) {
        this.logger.warn(
          `transient failure on ${envelope.type} ${envelope.eventId} (delivery ${deliveries}): ${text}`,
        );
        return 'nak';
      }
      if (deliveries >= (this.options.maxAttempts ?? 5)) {
        this.logger.error(
          `giving up on ${envelope.type} ${envelope.eventId} after ${deliveries} deliveries: ${text}`,
        );
        return this.deadLetter(msg, 'falha_no_tratamento', text, envelope);
      }
      this.logger.warn(
        `handler failed on ${envelope.type} ${envelope.eventId} (delivery ${deliveries}): ${text}`,
      );
      return 'nak';
    }
  }

  /**
   * Applies several messages (of one or more subjects, each subject's in stream order) in ONE
   * transaction, with every guarantee of `process` for each of them: the outcomes come back in
   * the order of `msgs`. A message whose subject has an earlier message pending elsewhere is left
   * out and comes back `defer`, and so do the later ones of its subject. When one of them is
   * refused (poison), or anything fails in the batch's transaction (a handler throws, a deadlock,
   * the database is gone), nothing of the batch is kept and its messages go one by one through
   * `process`, so each gets exactly the outcome it would get alone (dead-lettered, retried later
   * with backoff, given up after `maxAttempts`, parked).
   */
  async processBatch(msgs: readonly JsMsg[]): Promise<Outcome[]> {
    messagingMetrics.batchSize().observe({ consumer: this.options.consumer }, msgs.length);
    if (msgs.length === 1) return [await this.process(msgs[0]!)];
    const started = performance.now();
    const ordered = [...msgs].sort(inSubjectOrder);
    const items: BatchItem[] = [];
    for (const msg of ordered) {
      const parsed = parseEventMessage(msg, this.options.registry);
      if (!parsed.ok) return this.oneByOne(msgs, ordered, 'a message of the batch is refused');
      items.push({ msg, envelope: parsed.envelope });
    }
    let outcomes: Map<JsMsg, Outcome>;
    let duplicates: number;
    try {
      await this.prepareBatch(items);
      ({ outcomes, duplicates } = await this.applyBatch(items));
    } catch (error) {
      // The split runs each message's before-transaction step again, as a retry would.
      return this.oneByOne(msgs, ordered, String(error));
    }
    // Counted once committed: a batch rolled back is counted by the messages' own path.
    if (duplicates > 0)
      messagingMetrics.inboxDuplicates().inc({ consumer: this.options.consumer }, duplicates);
    for (const { msg } of items) {
      const outcome = outcomes.get(msg)!;
      if (outcome === 'defer') messagingMetrics.orderWaits().inc({ consumer: this.options.consumer });
      messagingMetrics
        .handlingDuration()
        .observe(
          { consumer: this.options.consumer, type: typeOfSubject(msg.subject), outcome },
          secondsSince(started),
        );
    }
    return msgs.map((msg) => outcomes.get(msg)!);
  }

  /**
   * The batch's split: each message through `process`, in stream order per subject. Once a message
   * of a subject is not settled (retried later, parked), the later ones of that subject wait too —
   * `process` would find that message pending and say `defer` after a look-up.
   */
  private async oneByOne(msgs: readonly JsMsg[], ordered: JsMsg[], why: string): Promise<Outcome[]> {
    this.logger.debug(`applying a batch of ${msgs.length} one message at a time: ${why}`);
    const outcomes = new Map<JsMsg, Outcome>();
    const held = new Set<string>();
    for (const msg of ordered) {
      if (held.has(msg.subject)) {
        messagingMetrics.orderWaits().inc({ consumer: this.options.consumer });
        outcomes.set(msg, 'defer');
        continue;
      }
      const outcome = await this.process(msg);
      if (outcome !== 'ack' && outcome !== 'term') held.add(msg.subject);
      outcomes.set(msg, outcome);
    }
    return msgs.map((msg) => outcomes.get(msg)!);
  }

  /**
   * The batch's transaction: the subjects' positions locked (one statement), the messages that
   * may go now claimed in the inbox (one statement), the handlers of the new ones in stream order
   * per subject — each with its own context, correlation and trace, as alone —, their events in
   * the outbox (one statement), each subject's position moved once, commit.
   */
  private async applyBatch(
    items: BatchItem[],
  ): Promise<{ outcomes: Map<JsMsg, Outcome>; duplicates: number }> {
    const consumer = this.options.consumer;
    return this.inOneTransaction(async (manager) => {
      const outcomes = new Map<JsMsg, Outcome>();
      // Every unit's writer queues its rows here, with its own headers: one insert for the batch.
      const outbox = new OutboxWriter(manager);
      const subjects = groupBySubject(items);
      const admitted = this.options.order
        ? await this.options.order.enterBatch(
            manager,
            [...subjects].map(([subject, of]) => ({ subject, seqs: of.map((i) => i.msg.seq) })),
          )
        : null;
      const taken: BatchItem[] = [];
      const moved: { subject: string; seq: number }[] = [];
      for (const [subject, of] of subjects) {
        const count = admitted?.get(subject) ?? of.length;
        of.forEach((item, i) => (i < count ? taken.push(item) : outcomes.set(item.msg, 'defer')));
        if (count > 0) moved.push({ subject, seq: of[count - 1]!.msg.seq });
      }
      // One inbox claim for all; an id twice in the batch (a copy republished past the broker's
      // duplicate window) is new for its first message only.
      const ids = [...new Set(taken.map((item) => item.envelope.eventId))];
      const claimed = new Set<string>();
      if (ids.length > 0) {
        const rows: { message_id: string }[] = await manager.query(
          `INSERT INTO inbox (consumer, message_id) SELECT $1, unnest($2::text[])
           ON CONFLICT DO NOTHING RETURNING message_id`,
          [consumer, ids],
        );
        for (const row of rows) claimed.add(row.message_id);
      }
      let duplicates = 0;
      for (const item of taken) {
        outcomes.set(item.msg, 'ack');
        if (!claimed.delete(item.envelope.eventId)) {
          duplicates++;
          continue; // seen before: the effect is already committed; the position still passes it
        }
        await this.runHandler(manager, outbox, item);
      }
      await outbox.flush();
      await this.options.order?.advanceBatch(manager, moved);
      return { outcomes, duplicates };
    });
  }

  /**
   * The before-transaction step of each message of the batch (`InboundOptions.prepare`), one after
   * another in the batch's order, each in its message's scope (correlation id, trace); nothing is
   * held meanwhile. A step that throws splits the batch.
   */
  /**
   * The batch's before-transaction steps, up to `PREPARE_CONCURRENCY` at once. Each sees the state
   * from before the batch's transaction whatever the order (none of them sees another's effect,
   * as when they ran one after the other), and a batch holds one of the process's few transaction
   * slots (`TransactionSlots`): run one by one, a batch of verdicts would wait for its calls to
   * another service in a row while every other consumer of the process waits for the slot.
   */
  private async prepareBatch(items: BatchItem[]): Promise<void> {
    const prepare = this.options.prepare;
    if (!prepare) return;
    let next = 0;
    let failure: { error: unknown } | null = null;
    const worker = async (): Promise<void> => {
      // After a failure no new step starts; the ones running finish before the batch is split.
      while (next < items.length && !failure) {
        const item = items[next++]!;
        const { msg, envelope } = item;
        try {
          item.prepared = await runInScope(
            natsHeaderReader(msg.headers),
            envelope.correlationId,
            this.spanOf(`${envelope.type} prepare`),
            () => prepare(envelope, () => this.inInbox(envelope)),
          );
        } catch (error) {
          failure ??= { error };
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(PREPARE_CONCURRENCY, items.length) }, worker));
    if (failure) throw (failure as { error: unknown }).error;
  }

  /**
   * One message's handler inside the batch's transaction, as its own unit of work (logs, trace,
   * events): its rows are queued on the batch's writer with its correlation id and trace headers.
   */
  private runHandler(
    manager: EntityManager,
    batchOutbox: OutboxWriter,
    { msg, envelope, prepared }: BatchItem,
  ): Promise<unknown> {
    const span = this.spanOf(`${envelope.type} process`);
    return runInScope(natsHeaderReader(msg.headers), envelope.correlationId, span, () =>
      this.handler(envelope.data, {
        envelope,
        manager,
        outbox: batchOutbox.forUnit(followOn(envelope)),
        deliveries: msg.info.deliveryCount,
        streamSeq: msg.seq,
        prepared,
      }),
    );
  }

  private spanOf(name: string): ScopeSpan {
    return {
      name,
      kind: 'consumer',
      attributes: { 'messaging.consumer.group.name': this.options.consumer },
    };
  }

  /**
   * The one commit point of inbound work (a message, a batch, a dead letter): `work` runs in one
   * transaction, and once this resolves it is committed. The outbox rows it wrote (one insert,
   * `OutboxWriter.flush`) were handed to the process's publisher, which sends them on COMMIT.
   */
  private inOneTransaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }

  /** Acts on an outcome: the backoff of a nak grows with the deliveries. */
  settle(msg: JsMsg, outcome: Outcome): void {
    if (outcome === 'ack') msg.ack();
    else if (outcome === 'term') msg.term();
    else if (outcome === 'defer') msg.nak(DEFER_DELAY_MS);
    else msg.nak((this.options.backoffMs ?? defaultBackoff)(msg.info.deliveryCount));
  }

  /** Whether the consumer's inbox has the message (read outside any transaction). */
  private async inInbox(envelope: EventEnvelope): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(
      `SELECT 1 FROM inbox WHERE consumer = $1 AND message_id = $2`,
      [this.options.consumer, envelope.eventId],
    );
    return rows.length > 0;
  }

  private parse(msg: JsMsg): EventEnvelope {
    const parsed = parseEventMessage(msg, this.options.registry);
    if (!parsed.ok) throw new Refused(parsed.reason, parsed.message, parsed.envelope);
    return parsed.envelope;
  }

  /** False when the inbox already had the message (a redelivery: acked without effect). */
  private async apply(msg: JsMsg, envelope: EventEnvelope, deliveries: number): Promise<boolean> {
    const prepared = await this.options.prepare?.(envelope, () => this.inInbox(envelope));
    return this.inOneTransaction(async (manager) => {
      // Seen before or not, the message takes its turn: the subject's position must pass it.
      // Its inbox claim goes in the same statement, after the position's lock.
      const claimed = await this.enterAndClaim(manager, msg, envelope.eventId);
      if (!claimed) {
        await this.options.order?.advance(manager, msg.subject, msg.seq);
        return false; // seen before: the effect is already committed
      }
      const outbox = new OutboxWriter(manager, followOn(envelope));
      await this.handler(envelope.data, {
        envelope,
        manager,
        outbox,
        deliveries,
        streamSeq: msg.seq,
        prepared,
      });
      await outbox.flush();
      await this.options.order?.advance(manager, msg.subject, msg.seq);
      return true;
    });
  }

  /** `enterTurn` and the message's inbox claim; false when the inbox had it (a redelivery). */
  private async enterAndClaim(manager: EntityManager, msg: JsMsg, messageId: string): Promise<boolean> {
    const order = this.options.order;
    if (!order) {
      const rows: unknown[] = await manager.query(
        `INSERT INTO inbox (consumer, message_id) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING 1`,
        [this.options.consumer, messageId],
      );
      return rows.length > 0;
    }
    const { predecessor, claimed } = await order.enterAndClaim(manager, msg.subject, msg.seq, {
      inboxConsumer: this.options.consumer,
      messageId,
    });
    if (predecessor) throw new PredecessorPending(predecessor);
    return claimed;
  }

  /** Locks the subject's position for the transaction, or rolls it back while an earlier message is pending. */
  private async enterTurn(manager: EntityManager, msg: JsMsg): Promise<void> {
    const predecessor = await this.options.order?.enter(manager, msg.subject, msg.seq);
    if (predecessor) throw new PredecessorPending(predecessor);
  }

  private async deadLetter(
    msg: JsMsg,
    reason: string,
    message: string,
    envelope: EventEnvelope | null,
  ): Promise<Outcome> {
    try {
      await this.inOneTransaction(async (manager) => {
        await this.enterTurn(manager, msg);
        await this.insertDeadLetter(manager, msg, reason, message, envelope);
        if (this.options.onInvalid) {
          const outbox = new OutboxWriter(manager, envelope ? followOn(envelope) : {});
          await this.options.onInvalid({ manager, outbox, envelope, reason, message });
          await outbox.flush();
        }
      });
    } catch (error) {
      if (error instanceof PredecessorPending) throw error;
      if (isRetryLater(error) || !this.options.onInvalid) {
        this.logger.warn(
          `could not dead-letter ${msg.subject} seq ${msg.seq}, retrying later: ${String(error)}`,
        );
        return 'nak';
      }
      // The hook itself cannot be written (its event refused by the database, say): retrying
      // would fail the same way forever, so the message is set aside without it.
      this.logger.error(
        `dead-lettering ${msg.subject} seq ${msg.seq} without its ${reason} notice, which failed: ${String(error)}`,
      );
      try {
        await this.inOneTransaction(async (manager) => {
          await this.enterTurn(manager, msg);
          await this.insertDeadLetter(manager, msg, reason, message, envelope);
        });
      } catch (again) {
        if (again instanceof PredecessorPending) throw again;
        this.logger.warn(
          `could not dead-letter ${msg.subject} seq ${msg.seq}, retrying later: ${String(again)}`,
        );
        return 'nak';
      }
    }
    messagingMetrics.deadLetters().inc({ consumer: this.options.consumer, reason });
    this.logger.warn(`dead-lettered ${msg.subject} seq ${msg.seq}: ${reason}: ${message}`);
    return 'term';
  }

  private async insertDeadLetter(
    manager: EntityManager,
    msg: JsMsg,
    reason: string,
    message: string,
    envelope: EventEnvelope | null,
  ): Promise<void> {
    await manager.query(
      `INSERT INTO dead_letter (consumer, subject, stream_seq, message_id, reason, message, payload, deliveries)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [
        this.options.consumer,
        msg.subject,
        msg.seq,
        storable(msg.headers?.get('Nats-Msg-Id') || envelope?.eventId || null),
        reason,
        storable(message.slice(0, 2000)),
        storable(decodeText(msg.data).slice(0, 65_536)),
        msg.info.deliveryCount,
      ],
    );
    await this.options.order?.advance(manager, msg.subject, msg.seq);
  }
}

/**
 * PostgreSQL text cannot hold NUL (0x00): a message carrying one could never be dead-lettered and
 * would be retried forever. It is kept with U+FFFD in its place.
 */
function storable<T extends string | null>(text: T): T {
  return (text === null ? null : text.replace(/\u0000/g, '\uFFFD')) as T;
}

interface BatchItem {
  msg: JsMsg;
  envelope: EventEnvelope;
  /** What the type's before-transaction step returned for this message. */
  prepared?: unknown;
}

/** By subject, then stream sequence: the order positions are locked and messages applied in. */
function inSubjectOrder(a: JsMsg, b: JsMsg): number {
  return a.subject < b.subject ? -1 : a.subject > b.subject ? 1 : a.seq - b.seq;
}

/** Items already in subject order, grouped by subject. */
function groupBySubject(items: BatchItem[]): Map<string, BatchItem[]> {
  const subjects = new Map<string, BatchItem[]>();
  for (const item of items) {
    const of = subjects.get(item.msg.subject);
    if (of) of.push(item);
    else subjects.set(item.msg.subject, [item]);
  }
  return subjects;
}
