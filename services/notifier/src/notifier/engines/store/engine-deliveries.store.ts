import type { DataSource } from 'typeorm';
import { markRowRetry, markRowsDead, markRowsSent } from '../../store/delivery-rows';

export interface ClaimedEngineDelivery {
  id: string;
  engineId: string;
  type: string;
  streamSeq: number;
  /** The §8 envelope, as JSON: the body sent. */
  body: string;
  attempts: number;
  /** The subscription's target now (null: the engine removed its subscription since). */
  target: { url: string; secret: string } | null;
}

/**
 * Claims up to `limit` due engine deliveries with a lease (`deliveries.store.ts` `claimDue` does the
 * same for notifications), but only the oldest pending one of each (engine, subject): a later event
 * of a subject waits until the earlier one is sent or dead, so an engine gets each subject's events
 * in stream order (SPEC §12.5), one in flight at a time, also across replicas.
 */
export async function claimDueEngineDeliveries(
  ds: DataSource,
  limit: number,
  leaseMs: number,
): Promise<ClaimedEngineDelivery[]> {
  const rows: {
    id: string;
    engine_id: string;
    type: string;
    stream_seq: string;
    body: string;
    attempts: number;
    url: string | null;
    secret: string | null;
  }[] = await ds.query(
    `WITH due AS (
       SELECT d.id FROM engine_delivery d
        WHERE d.status = 'pending' AND d.next_attempt_at <= now()
          AND NOT EXISTS (SELECT 1 FROM engine_delivery e
                           WHERE e.engine_id = d.engine_id AND e.subject = d.subject
                             AND e.status = 'pending' AND e.stream_seq < d.stream_seq)
        ORDER BY d.stream_seq LIMIT $1 FOR UPDATE SKIP LOCKED
     ), claimed AS (
       UPDATE engine_delivery d
          SET attempts = d.attempts + 1, next_attempt_at = now() + ($2::bigint * interval '1 millisecond')
         FROM due WHERE d.id = due.id
       RETURNING d.id, d.engine_id, d.type, d.stream_seq, d.body, d.attempts
     )
     SELECT claimed.*, s.url, s.secret FROM claimed
       LEFT JOIN engine_subscription s ON s.engine_id = claimed.engine_id
      ORDER BY claimed.stream_seq`,
    [limit, leaseMs],
  );
  return rows.map((r) => ({
    id: r.id,
    engineId: r.engine_id,
    type: r.type,
    streamSeq: Number(r.stream_seq),
    body: r.body,
    attempts: r.attempts,
    target: r.url !== null && r.secret !== null ? { url: r.url, secret: r.secret } : null,
  }));
}

export async function markEngineSent(ds: DataSource, id: string): Promise<void> {
  await markRowsSent(ds, 'engine_delivery', id);
}

export async function markEngineRetry(
  ds: DataSource,
  id: string,
  delayMs: number,
  error: string,
): Promise<void> {
  await markRowRetry(ds, 'engine_delivery', id, delayMs, error);
}

export async function markEngineDead(ds: DataSource, id: string, error: string): Promise<boolean> {
  return (await markRowsDead(ds, 'engine_delivery', id, error)) > 0;
}
