import type { DataSource, EntityManager } from 'typeorm';
import type { SubjectOrder } from '../subject-order';
import type { BatchItem } from './batch';
import { PredecessorPending } from './order';

/*
 * The inbox claim: the idempotency row (`inbox (consumer, message_id)`) written in the same
 * transaction as a message's effects, so a redelivery finds it and is acked without effect.
 */
export class Inbox {
  constructor(
    private readonly dataSource: DataSource,
    /** The inbox name of this consumer (the durable name). */
    readonly consumer: string,
  ) {}

  /** Whether the consumer's inbox has the message (read outside any transaction). */
  readonly has = async (messageId: string): Promise<boolean> => {
    const rows: unknown[] = await this.dataSource.query(
      `SELECT 1 FROM inbox WHERE consumer = $1 AND message_id = $2`,
      [this.consumer, messageId],
    );
    return rows.length > 0;
  };

  /**
   * One message's claim, false when the inbox had it (a redelivery). With an order, it takes the
   * message's turn first (`SubjectOrder.enterAndClaim`: the claim goes in the same statement,
   * after the position's lock) and throws `PredecessorPending` while an earlier message of the
   * subject is not settled.
   */
  async claimInTurn(
    manager: EntityManager,
    order: SubjectOrder | undefined,
    msg: { subject: string; seq: number },
    messageId: string,
  ): Promise<boolean> {
    if (!order) {
      const rows: unknown[] = await manager.query(
        `INSERT INTO inbox (consumer, message_id) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING 1`,
        [this.consumer, messageId],
      );
      return rows.length > 0;
    }
    const { predecessor, claimed } = await order.enterAndClaim(manager, msg.subject, msg.seq, {
      inboxConsumer: this.consumer,
      messageId,
    });
    if (predecessor) throw new PredecessorPending(predecessor);
    return claimed;
  }

  /**
   * One claim for the messages a batch takes (one statement; none when there are none): the ids
   * new to the inbox. An id twice in the batch (a copy republished past the broker's duplicate
   * window) is claimed once; the caller takes it as new for its first message only.
   */
  async claimBatch(manager: EntityManager, taken: BatchItem[]): Promise<Set<string>> {
    const ids = [...new Set(taken.map((item) => item.envelope.eventId))];
    const claimed = new Set<string>();
    if (ids.length > 0) {
      const rows: { message_id: string }[] = await manager.query(
        `INSERT INTO inbox (consumer, message_id) SELECT $1, unnest($2::text[])
           ON CONFLICT DO NOTHING RETURNING message_id`,
        [this.consumer, ids],
      );
      for (const row of rows) claimed.add(row.message_id);
    }
    return claimed;
  }
}
