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
} from '@openq/contracts';
import { decodeJson, decodeText } from './codec';
import { EventEnvelopeDto } from './envelope.dto';
import { messagingMetrics, secondsSince } from './metrics';
import { OutboxWriter } from './outbox';
import { natsHeaderReader, runInScope, type MessageScope } from './trace-context';
import { isRetryLater } from './retry-later';
import type { Predecessor, SubjectOrder } from './subject-order';

/** What a handler of an inbound event gets: the event and the transaction its effects go in. */
export interface EventContext {
  envelope: EventEnvelope;
  manager: EntityManager;
  outbox: OutboxWriter;
  deliveries: number;
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
   */
  prepare?: (envelope: EventEnvelope) => Promise<unknown>;
}

/** `defer`: not applied yet, as an earlier message of its subject is pending (the runner parks it and tries again). */
export type Outcome = 'ack' | 'nak' | 'term' | 'defer';

const DEFER_DELAY_MS = 250;

export const defaultBackoff = (deliveries: number): number =>
  Math.min(30_000, 200 * 2 ** Math.max(0, deliveries - 1));

/** What `parseEventMessage` makes of a message: its envelope, or why it is refused (dead-lettered). */
export type ParsedEventMessage =
  | { ok: true; envelope: EventEnvelope }
  | { ok: false; reason: string; message: string; envelope: EventEnvelope | null };

/**
 * Parses one stream message as every consumer does: JSON, the envelope's shape, its subject
 * (`<type>.<projectId>`), then `data`. What comes from outside (`agent.*`, the engine's stream) is
 * validated against the registry (its validated instance replaces `data`). openq's own events
 * (`OPENQ_EVENTS`, published only by openq services from their outbox, SPEC §8) are trusted: their
 * data was checked before it was written, so only the type is looked up and the envelope's shape
 * is checked cheaply, without class-validator. A refusal names the reason the dead letter
 * records; `envelope` is kept when only `data` failed. Replays of read models use it too, so
 * they refuse exactly what consumers do.
 */
export function parseEventMessage(
  msg: { subject: string; data: Uint8Array },
  registry?: MessageRegistry,
): ParsedEventMessage {
  const decoded = decodeJson(msg.data);
  if (!decoded.ok)
    return { ok: false, reason: 'json_invalido', message: `not JSON: ${decoded.error}`, envelope: null };
  const trusted = isTrustedSubject(msg.subject);
  const shape = trusted
    ? trustedShape(decoded.value)
    : validateAs(EventEnvelopeDto, decoded.value, 'envelope_invalido');
  if (!shape.ok) return { ok: false, reason: shape.reason, message: shape.message, envelope: null };
  const envelope = decoded.value as EventEnvelope;
  if (`${envelope.type}.${envelope.projectId}` !== msg.subject) {
    return {
      ok: false,
      reason: 'envelope_invalido',
      message: `subject ${msg.subject} does not match type ${envelope.type} and projectId`,
      envelope: null,
    };
  }
  if (registry && trusted) {
    if (!registry.get(envelope.type))
      return { ok: false, reason: 'tipo_desconhecido', message: `unknown type ${envelope.type}`, envelope };
  } else if (registry) {
    const data = registry.validate(typeOfSubject(msg.subject), envelope.data);
    if (!data.ok) return { ok: false, reason: data.reason, message: data.message, envelope };
    envelope.data = data.value;
  }
  return { ok: true, envelope };
}

/** openq's own events: the subjects of `OPENQ_EVENTS`, which only openq services publish (SPEC §8). */
function isTrustedSubject(subject: string): boolean {
  return TRUSTED_PREFIXES.some((prefix) => subject.startsWith(prefix));
}

const TRUSTED_PREFIXES = STREAMS.openqEvents.subjects.map((s) => s.replace(/>$/, ''));

/** The envelope fields a handler reads, checked without class-validator (a trusted message). */
function trustedShape(value: unknown): { ok: true } | { ok: false; reason: string; message: string } {
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
      const span = {
        name: `${type} process`,
        kind: 'consumer' as const,
        attributes: { 'messaging.consumer.group.name': this.options.consumer },
      };
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

  /** Acts on an outcome: the backoff of a nak grows with the deliveries. */
  settle(msg: JsMsg, outcome: Outcome): void {
    if (outcome === 'ack') msg.ack();
    else if (outcome === 'term') msg.term();
    else if (outcome === 'defer') msg.nak(DEFER_DELAY_MS);
    else msg.nak((this.options.backoffMs ?? defaultBackoff)(msg.info.deliveryCount));
  }

  private parse(msg: JsMsg): EventEnvelope {
    const parsed = parseEventMessage(msg, this.options.registry);
    if (!parsed.ok) throw new Refused(parsed.reason, parsed.message, parsed.envelope);
    return parsed.envelope;
  }

  /** False when the inbox already had the message (a redelivery: acked without effect). */
  private async apply(msg: JsMsg, envelope: EventEnvelope, deliveries: number): Promise<boolean> {
    const prepared = await this.options.prepare?.(envelope);
    return this.dataSource.transaction(async (manager) => {
      const claimed: unknown[] = await manager.query(
        `INSERT INTO inbox (consumer, message_id) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING 1`,
        [this.options.consumer, envelope.eventId],
      );
      // Seen before or not, the message takes its turn: the subject's position must pass it.
      await this.enterTurn(manager, msg);
      if (claimed.length === 0) {
        await this.options.order?.advance(manager, msg.subject, msg.seq);
        return false; // seen before: the effect is already committed
      }
      const outbox = new OutboxWriter(manager, followOn(envelope));
      await this.handler(envelope.data, { envelope, manager, outbox, deliveries, prepared });
      await outbox.flush();
      await this.options.order?.advance(manager, msg.subject, msg.seq);
      return true;
    });
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
      await this.dataSource.transaction(async (manager) => {
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
        await this.dataSource.transaction(async (manager) => {
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
