import type { EntityManager } from 'typeorm';
import type { EventEnvelope, MessageRegistry } from '@openq/contracts';
import type { OutboxWriter } from '../outbox';
import type { SubjectOrder } from '../subject-order';
import type { ScopeSpan } from '../trace-context';

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
  /**
   * The envelopes of the new messages whose handlers run in this transaction, in the order they
   * run, this one's included (`[envelope]` for a message alone). A per-message handler may do its
   * batch's work of one kind in one statement at the first message that needs it
   * (`readOncePerTransaction`) instead of one statement per message (docs/decisions.md, "A
   * message sees its batch").
   */
  batch: readonly EventEnvelope[];
  /**
   * Runs `work` once every handler of this message has run, in the same transaction and the
   * handler's async context, before the message's outbox rows are written; several run in the
   * order given. A handler that sent a statement ahead (`sendAheadOfNext`) reads its reply there,
   * so the statements of the handlers after it leave in the same write and cost no round trip of
   * their own (docs/decisions.md, "A handler's reply read after the chain").
   */
  afterHandlers(work: () => Promise<void>): void;
}

export type EventHandlerFn = (data: unknown, ctx: EventContext) => Promise<unknown>;

/** One new message of a batch, for a whole-batch handler: its payload and its own context. */
export interface EventUnit {
  data: unknown;
  event: EventContext;
}

/** A whole-batch handler: every new message of the batch in one call, each subject's in stream order. */
export type BatchHandlerFn = (units: EventUnit[]) => Promise<unknown>;

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
  /**
   * Set, the type's handling takes the batch's new messages in one call instead of the handler
   * once per message (`WHOLE_BATCH`): a handler that can write a group set-based pays its
   * statements once per batch. Each unit keeps its own outbox writer (its events carry its
   * correlation id and trace context), its deliveries, sequence and `prepared`; a message alone
   * (a batch of one, a split) is a call with one unit. Everything else is the batch's as for
   * per-message handlers: one transaction, split into messages one by one when anything fails.
   */
  wholeBatch?: BatchHandlerFn;
}

/** `defer`: not applied yet, as an earlier message of its subject is pending (the runner parks it and tries again). */
export type Outcome = 'ack' | 'nak' | 'term' | 'defer';

export const defaultBackoff = (deliveries: number): number =>
  Math.min(30_000, 200 * 2 ** Math.max(0, deliveries - 1));

/** The span of one unit of inbound work of `consumer` (a message's handling, its before-transaction step). */
export function consumerSpan(consumer: string, name: string): ScopeSpan {
  return { name, kind: 'consumer', attributes: { 'messaging.consumer.group.name': consumer } };
}
