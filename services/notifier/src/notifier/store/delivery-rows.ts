import { returnedRows } from '@openq/persistence';

/**
 * The lifecycle every row the sender delivers shares — a person's notification, a digest, an
 * engine's event: pending until sent, retried later with the failure kept, or dead with its
 * reason. Written once; each store names its table. Only a pending row moves, so a late answer
 * from a send that timed out cannot undo what a retry or a stop decided meanwhile.
 */
export type DeliveryTable = 'notification_delivery' | 'notification_digest' | 'engine_delivery';

interface Queryable {
  query(sql: string, parameters?: unknown[]): Promise<unknown>;
}

/** Sent; the row's `column` (its id by default) names the rows. */
export async function markRowsSent(
  q: Queryable,
  table: DeliveryTable,
  id: string,
  column: 'id' | 'digest_id' = 'id',
): Promise<void> {
  await q.query(
    `UPDATE ${table} SET status = 'sent', sent_at = now(), last_error = NULL
      WHERE ${column} = $1 AND status = 'pending'`,
    [id],
  );
}

/** Tried again after `delayMs`, with the failure kept. */
export async function markRowRetry(
  q: Queryable,
  table: DeliveryTable,
  id: string,
  delayMs: number,
  error: string,
): Promise<void> {
  await q.query(
    `UPDATE ${table}
        SET next_attempt_at = now() + ($2::bigint * interval '1 millisecond'), last_error = $3
      WHERE id = $1 AND status = 'pending'`,
    [id, delayMs, error],
  );
}

/** Dead, with the reason; how many rows died (0: it had moved on already). */
export async function markRowsDead(
  q: Queryable,
  table: DeliveryTable,
  id: string,
  error: string,
  column: 'id' | 'digest_id' = 'id',
): Promise<number> {
  const result: unknown = await q.query(
    `UPDATE ${table} SET status = 'dead', dead_at = now(), last_error = $2
      WHERE ${column} = $1 AND status = 'pending' RETURNING id`,
    [id, error],
  );
  return returnedRows(result).length;
}
