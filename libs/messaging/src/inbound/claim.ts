import type { DataSource, EntityManager } from 'typeorm';
import type { SubjectOrder, SubjectTurn } from '../subject-order';
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
   * One message's claim as the final statement of a unit run in one statement (`inOneStatement`):
   * it fails the statement on purpose when the inbox had the message, or when its turn cannot be
   * told without a look-up (`SubjectOrder.claimInOneStatement`); null when it cannot be tried.
   */
  claimInOneStatement(
    order: SubjectOrder | undefined,
    msg: { subject: string; seq: number },
    messageId: string,
  ): { sql: string; params: unknown[] } | null {
    if (order)
      return order.claimInOneStatement(msg.subject, msg.seq, { inboxConsumer: this.consumer, messageId });
    return {
      sql: `WITH claimed AS (
         INSERT INTO inbox (consumer, message_id) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING 1)
       SELECT 1 / (CASE WHEN EXISTS (SELECT 1 FROM claimed) THEN 1 ELSE 0 END) AS applied`,
      params: [this.consumer, messageId],
    };
  }

  /**
   * `claimInOneStatement` for a batch's messages, in subject order (`inSubjectOrder`); null when
   * it cannot be tried (an id twice in the batch; a turn that needs a look-up).
   */
  claimBatchInOneStatement(
    order: SubjectOrder | undefined,
    items: BatchItem[],
  ): { sql: string; params: unknown[] } | null {
    const messageIds = items.map((item) => item.envelope.eventId);
    if (new Set(messageIds).size !== messageIds.length) return null;
    if (order) {
      const turns: SubjectTurn[] = [];
      for (const { msg } of items) {
        const last = turns[turns.length - 1];
        if (last?.subject === msg.subject) last.seqs.push(msg.seq);
        else turns.push({ subject: msg.subject, seqs: [msg.seq] });
      }
      return order.claimBatchInOneStatement(turns, { inboxConsumer: this.consumer, messageIds });
    }
    return {
      sql: `WITH claimed AS (
         INSERT INTO inbox (consumer, message_id) SELECT $1, unnest($2::text[]) ON CONFLICT DO NOTHING RETURNING 1)
       SELECT 1 / (CASE WHEN (SELECT count(*) FROM claimed) = cardinality($2::text[]) THEN 1 ELSE 0 END) AS applied`,
      params: [this.consumer, messageIds],
    };
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
