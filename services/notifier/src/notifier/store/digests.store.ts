import type { DataSource } from 'typeorm';
import { markRowRetry, markRowsDead, markRowsSent } from './delivery-rows';
import type { EmailTarget, Notification } from '../adapters/channels/channel';
import { digestDue, digestId, type DigestMode } from '../adapters/channels/digest';

/*
 * Digest e-mails (issue #17): held e-mail deliveries (their channel is `hourly` or `daily`) are
 * collected, once `digestDue` says so, into a digest row in the same transaction that claims them
 * — the set is fixed before anything is sent, so a retry after a crash is the same message (same
 * id, same Message-ID). A digest is then claimed and sent like a delivery (lease, backoff).
 */

interface HeldRow {
  id: string;
  project_id: string;
  recipient_user_id: string;
  notification: Notification;
  mode: DigestMode;
}

/**
 * Collects every (project, person) whose held deliveries are due at `now` into a digest; returns
 * how many digests were made. Replicas race safely: rows are locked `SKIP LOCKED` and re-checked.
 */
export async function collectDueDigests(ds: DataSource, now: Date): Promise<number> {
  const held: HeldRow[] = await ds.query(
    `SELECT d.id, d.project_id, d.recipient_user_id, d.notification, c.target->>'mode' AS mode
       FROM notification_delivery d
       JOIN notification_channel c
         ON c.project_id = d.project_id AND c.user_id = d.recipient_user_id AND c.kind = 'email'
      WHERE d.status = 'pending' AND d.channel = 'email' AND d.digest_id IS NULL
        AND c.enabled AND c.target->>'mode' IN ('hourly', 'daily')`,
  );
  const groups = new Map<string, HeldRow[]>();
  for (const row of held) {
    const key = `${row.project_id}\u0000${row.recipient_user_id}`;
    groups.set(key, [...(groups.get(key) ?? []), row]);
  }
  let made = 0;
  for (const rows of groups.values()) {
    const first = rows[0]!;
    const due = digestDue(
      rows.map((r) => r.notification),
      { mode: first.mode },
      now,
    );
    if (!due?.due) continue;
    made += await ds.transaction(async (m) => {
      const locked: { id: string; notification: Notification }[] = await m.query(
        `SELECT id, notification FROM notification_delivery
          WHERE id = ANY($1::uuid[]) AND status = 'pending' AND digest_id IS NULL
          FOR UPDATE SKIP LOCKED`,
        [rows.map((r) => r.id)],
      );
      if (locked.length === 0) return 0;
      const id = digestId(locked.map((r) => r.notification));
      await m.query(
        `INSERT INTO notification_digest (id, project_id, recipient_user_id, mode)
         VALUES ($1, $2, $3, $4) ON CONFLICT (id) DO NOTHING`,
        [id, first.project_id, first.recipient_user_id, first.mode],
      );
      await m.query(`UPDATE notification_delivery SET digest_id = $1 WHERE id = ANY($2::uuid[])`, [
        id,
        locked.map((r) => r.id),
      ]);
      return 1;
    });
  }
  return made;
}

export interface ClaimedDigest {
  id: string;
  mode: DigestMode;
  attempts: number;
  /** The notifications it lists, fixed when it was made. */
  notifications: Notification[];
  /** The e-mail channel now (null: removed or disabled since). */
  target: EmailTarget | null;
}

/** Claims due digests with a lease, like `claimDue` for deliveries. */
export async function claimDueDigests(
  ds: DataSource,
  limit: number,
  leaseMs: number,
): Promise<ClaimedDigest[]> {
  const rows: {
    id: string;
    mode: DigestMode;
    attempts: number;
    notifications: Notification[];
    target: EmailTarget | null;
    enabled: boolean | null;
  }[] = await ds.query(
    `WITH due AS (
       SELECT id FROM notification_digest
        WHERE status = 'pending' AND next_attempt_at <= now()
        ORDER BY next_attempt_at, id LIMIT $1 FOR UPDATE SKIP LOCKED
     ), claimed AS (
       UPDATE notification_digest g
          SET attempts = g.attempts + 1, next_attempt_at = now() + ($2::bigint * interval '1 millisecond')
         FROM due WHERE g.id = due.id
       RETURNING g.id, g.mode, g.attempts, g.project_id, g.recipient_user_id
     )
     SELECT claimed.id, claimed.mode, claimed.attempts, c.target, c.enabled,
            (SELECT coalesce(jsonb_agg(d.notification ORDER BY d.occurred_at, d.id), '[]'::jsonb)
               FROM notification_delivery d WHERE d.digest_id = claimed.id) AS notifications
       FROM claimed
       LEFT JOIN notification_channel c
         ON c.project_id = claimed.project_id AND c.user_id = claimed.recipient_user_id AND c.kind = 'email'`,
    [limit, leaseMs],
  );
  return rows.map((r) => ({
    id: r.id,
    mode: r.mode,
    attempts: r.attempts,
    notifications: r.notifications,
    target: r.enabled ? r.target : null,
  }));
}

/** The digest and every delivery it lists: sent, in one transaction. */
export async function markDigestSent(ds: DataSource, id: string): Promise<void> {
  await ds.transaction(async (m) => {
    await markRowsSent(m, 'notification_digest', id);
    await markRowsSent(m, 'notification_delivery', id, 'digest_id');
  });
}

export async function markDigestRetry(
  ds: DataSource,
  id: string,
  delayMs: number,
  error: string,
): Promise<void> {
  await markRowRetry(ds, 'notification_digest', id, delayMs, error);
}

/** The digest and its deliveries: dead, with the reason. Returns how many deliveries died. */
export async function markDigestDead(ds: DataSource, id: string, error: string): Promise<number> {
  return ds.transaction(async (m) => {
    await markRowsDead(m, 'notification_digest', id, error);
    return markRowsDead(m, 'notification_delivery', id, error, 'digest_id');
  });
}
