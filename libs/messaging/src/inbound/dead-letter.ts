import type { Logger } from '@nestjs/common';
import type { JsMsg } from 'nats';
import type { DataSource, EntityManager } from 'typeorm';
import { followOn, type EventEnvelope } from '@openq/contracts';
import { decodeText } from '../codec';
import { messagingMetrics } from '../metrics';
import { OutboxWriter } from '../outbox';
import { isRetryLater } from '../retry-later';
import { enterTurn, PredecessorPending } from './order';
import type { InboundOptions, Outcome } from './options';

/*
 * Giving up on a message: when, and parking it (`term`) with a `dead_letter` row that keeps its
 * reason and payload, in its subject's turn (the position passes it) and, with `onInvalid`, the
 * consumer's notice (e.g. `question.rejected`) in the same transaction.
 */

/** Attempts before a message whose handler keeps failing (not transiently) is dead-lettered. */
export const DEFAULT_MAX_ATTEMPTS = 5;

/**
 * Pure: what a handler's failure on the message's `deliveries`-th delivery leads to.
 * `retry-later`: transient (an outage), retried with backoff however many deliveries it took;
 * `give-up`: dead-lettered (`falha_no_tratamento`); `retry`: retried with backoff.
 */
export function afterHandlerFailure(
  error: unknown,
  deliveries: number,
  maxAttempts = DEFAULT_MAX_ATTEMPTS,
): 'retry-later' | 'give-up' | 'retry' {
  if (isRetryLater(error)) return 'retry-later';
  return deliveries >= maxAttempts ? 'give-up' : 'retry';
}

/**
 * Pure: what a failed dead-letter transaction leads to. `retry-later`: it may pass (transient),
 * or there was no notice to blame; `without-notice`: the notice itself cannot be written (its
 * event refused by the database, say) and retrying would fail the same way forever, so the
 * message is dead-lettered without it.
 */
export function afterDeadLetterFailure(
  error: unknown,
  withNotice: boolean,
): 'retry-later' | 'without-notice' {
  return isRetryLater(error) || !withNotice ? 'retry-later' : 'without-notice';
}

/**
 * Pure: the parameters of the `dead_letter` row ($1…$8: consumer, subject, stream_seq,
 * message_id, reason, message, payload, deliveries). The message id is the publisher's
 * Nats-Msg-Id, else the envelope's id; the message is cut at 2,000 characters and the payload at
 * 65,536, each `storable`.
 */
export function deadLetterRow(
  consumer: string,
  msg: Pick<JsMsg, 'subject' | 'seq' | 'headers' | 'data' | 'info'>,
  reason: string,
  message: string,
  envelope: EventEnvelope | null,
): unknown[] {
  return [
    consumer,
    msg.subject,
    msg.seq,
    storable(msg.headers?.get('Nats-Msg-Id') || envelope?.eventId || null),
    reason,
    storable(message.slice(0, 2000)),
    storable(decodeText(msg.data).slice(0, 65_536)),
    msg.info.deliveryCount,
  ];
}

/**
 * PostgreSQL text cannot hold NUL (0x00): a message carrying one could never be dead-lettered and
 * would be retried forever. It is kept with U+FFFD in its place.
 */
export function storable<T extends string | null>(text: T): T {
  return (text === null ? null : text.replace(/\u0000/g, '\uFFFD')) as T;
}

/** Dead-letters the messages of one consumer. */
export class DeadLetters {
  constructor(
    private readonly dataSource: DataSource,
    private readonly options: InboundOptions,
    private readonly logger: Logger,
  ) {}

  /**
   * Sets the message aside: `term`, once its dead letter (and the `onInvalid` notice) is
   * committed in its subject's turn; `nak` when that could not be written yet. Throws
   * `PredecessorPending` while an earlier message of the subject is not settled.
   */
  async park(msg: JsMsg, reason: string, message: string, envelope: EventEnvelope | null): Promise<Outcome> {
    const onInvalid = this.options.onInvalid;
    try {
      await this.dataSource.transaction(async (manager) => {
        await enterTurn(this.options.order, manager, msg);
        await this.insert(manager, msg, reason, message, envelope);
        if (onInvalid) {
          const outbox = new OutboxWriter(manager, envelope ? followOn(envelope) : {});
          await onInvalid({ manager, outbox, envelope, reason, message });
          await outbox.flush();
        }
      });
    } catch (error) {
      if (error instanceof PredecessorPending) throw error;
      if (afterDeadLetterFailure(error, !!onInvalid) === 'retry-later') {
        this.logger.warn(
          `could not dead-letter ${msg.subject} seq ${msg.seq}, retrying later: ${String(error)}`,
        );
        return 'nak';
      }
      this.logger.error(
        `dead-lettering ${msg.subject} seq ${msg.seq} without its ${reason} notice, which failed: ${String(error)}`,
      );
      try {
        await this.dataSource.transaction(async (manager) => {
          await enterTurn(this.options.order, manager, msg);
          await this.insert(manager, msg, reason, message, envelope);
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

  /** The dead letter, and the subject's position past the message (in the same transaction). */
  private async insert(
    manager: EntityManager,
    msg: JsMsg,
    reason: string,
    message: string,
    envelope: EventEnvelope | null,
  ): Promise<void> {
    await manager.query(
      `INSERT INTO dead_letter (consumer, subject, stream_seq, message_id, reason, message, payload, deliveries)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      deadLetterRow(this.options.consumer, msg, reason, message, envelope),
    );
    await this.options.order?.advance(manager, msg.subject, msg.seq);
  }
}
