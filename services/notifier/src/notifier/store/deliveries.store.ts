import type { DataSource, EntityManager } from 'typeorm';
import { deferRows } from '@openq/persistence';
import { markRowRetry, markRowsDead, markRowsSent } from './delivery-rows';
import type { DeliveryListFilter, DeliveryListReply, DeliveryStatus, DeliveryView } from '@openq/contracts';
import type { ChannelKind, ChannelTargets, Notification } from '../adapters/channels/channel';

export interface NewDelivery {
  notification: Notification;
  eventId: string;
  channel: ChannelKind;
}

/**
 * Inserts the deliveries of one event. The unique key (event, channel, recipient) makes a second
 * insert of the same one a no-op: with the inbox in front, it is the sent-once guarantee's last word.
 */
export async function insertDeliveries(m: EntityManager, rows: readonly NewDelivery[]): Promise<number> {
  if (rows.length === 0) return 0;
  const inserted: unknown[] = await m.query(
    `INSERT INTO notification_delivery
       (id, event_id, project_id, recipient_user_id, channel, kind, notification, occurred_at)
     SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::text[], $5::text[], $6::text[], $7::jsonb[], $8::timestamptz[])
     ON CONFLICT ON CONSTRAINT notification_delivery_once DO NOTHING
     RETURNING id`,
    [
      rows.map((r) => r.notification.id),
      rows.map((r) => r.eventId),
      rows.map((r) => r.notification.projectId),
      rows.map((r) => r.notification.recipientUserId),
      rows.map((r) => r.channel),
      rows.map((r) => r.notification.kind),
      rows.map((r) => JSON.stringify(r.notification)),
      rows.map((r) => r.notification.occurredAt),
    ],
  );
  return inserted.length;
}

/**
 * An e-mail delivery whose channel is in digest mode (hourly, daily) is held: the digest pass
 * (digests.store.ts) collects it into a digest instead. Correlated on `notification_delivery`.
 */
const HELD_FOR_DIGEST = `SELECT 1 FROM notification_channel c
   WHERE notification_delivery.channel = 'email' AND c.kind = 'email'
     AND c.project_id = notification_delivery.project_id
     AND c.user_id = notification_delivery.recipient_user_id
     AND c.enabled AND c.target->>'mode' IN ('hourly', 'daily')`;

export interface ClaimedDelivery {
  id: string;
  channel: ChannelKind;
  kind: string;
  attempts: number;
  notification: Notification;
  occurredAt: Date;
  /** The channel's target now (null: the person removed or disabled the channel since). */
  target: ChannelTargets[ChannelKind] | null;
  /** Whether it was ever sent before (a redelivery): the latency is only measured the first time. */
  resend: boolean;
}

/**
 * Claims up to `limit` due deliveries for this process: `FOR UPDATE SKIP LOCKED`, so replicas
 * never take the same row, and a lease — `next_attempt_at` moves `leaseMs` ahead and the attempt
 * is counted — committed before anything is sent. A process that dies while sending leaves the
 * row to be claimed again once the lease has run out.
 */
export async function claimDue(ds: DataSource, limit: number, leaseMs: number): Promise<ClaimedDelivery[]> {
  const rows: {
    id: string;
    channel: ChannelKind;
    kind: string;
    attempts: number;
    notification: Notification;
    occurred_at: Date;
    target: ChannelTargets[ChannelKind] | null;
    enabled: boolean | null;
    sent_before: boolean;
  }[] = await ds.query(
    `WITH due AS (
       SELECT id FROM notification_delivery
        WHERE status = 'pending' AND next_attempt_at <= now() AND digest_id IS NULL
          AND NOT EXISTS (${HELD_FOR_DIGEST})
        ORDER BY next_attempt_at, id LIMIT $1 FOR UPDATE SKIP LOCKED
     ), claimed AS (
       UPDATE notification_delivery d
          SET attempts = d.attempts + 1, next_attempt_at = now() + ($2::bigint * interval '1 millisecond')
         FROM due WHERE d.id = due.id
       RETURNING d.id, d.channel, d.kind, d.attempts, d.notification, d.occurred_at, d.project_id,
                 d.recipient_user_id, d.sent_at IS NOT NULL AS sent_before
     )
     SELECT claimed.*, c.target, c.enabled FROM claimed
       LEFT JOIN notification_channel c
         ON c.project_id = claimed.project_id AND c.user_id = claimed.recipient_user_id AND c.kind = claimed.channel`,
    [limit, leaseMs],
  );
  return rows.map((r) => ({
    id: r.id,
    channel: r.channel,
    kind: r.kind,
    attempts: r.attempts,
    notification: r.notification,
    occurredAt: new Date(r.occurred_at),
    target: r.enabled ? r.target : null,
    resend: r.sent_before,
  }));
}

/** The notification kinds the clock of a question plans (they only make sense while it is open). */
export const CLOCK_KINDS = ['question_reminder', 'question_due', 'question_escalated'] as const;

/**
 * In the transaction that closes a question: its clock notices still pending (retrying, or held
 * for a digest) are `skipped`, with why, instead of telling someone about a question that waits
 * no more. Nothing in the transaction reads what it changes (the event handlers insert no clock
 * kinds), so its rows wait for the transaction's end (`deferRows`, `untilCommit`): a batch's
 * closes skip in one statement, after every close, each of which waited for the tick holding its
 * question, so it sees what that tick planned.
 */
export async function skipClockNotices(
  m: EntityManager,
  questionId: string,
  closedAs: 'answered' | 'withdrawn',
): Promise<void> {
  await deferRows(
    m,
    SKIP_CLOCK_NOTICES,
    [questionId, closedAs === 'answered' ? 'pergunta_respondida' : 'pergunta_retirada'],
    { untilCommit: true },
  );
}

const SKIP_CLOCK_NOTICES = `UPDATE notification_delivery d SET status = 'skipped', last_error = s.why
    FROM unnest($1::text[], $2::text[]) AS s (question_id, why)
   WHERE d.status = 'pending' AND d.digest_id IS NULL
     AND d.kind IN (${CLOCK_KINDS.map((k) => `'${k}'`).join(', ')})
     AND d.notification->'questions'->0->>'questionId' = s.question_id`;

/** Marks a delivery sent: one statement, right after the channel accepted it. */
export async function markSent(ds: DataSource, id: string): Promise<void> {
  await markRowsSent(ds, 'notification_delivery', id);
}

export async function markRetry(ds: DataSource, id: string, delayMs: number, error: string): Promise<void> {
  await markRowRetry(ds, 'notification_delivery', id, delayMs, error);
}

export async function markDead(ds: DataSource, id: string, error: string): Promise<boolean> {
  return (await markRowsDead(ds, 'notification_delivery', id, error)) > 0;
}

interface DeliveryRow {
  id: string;
  event_id: string;
  kind: string;
  channel: string;
  status: DeliveryStatus;
  attempts: number;
  last_error: string | null;
  created_at: Date;
  next_attempt_at: Date;
  sent_at: Date | null;
  dead_at: Date | null;
}

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);

function toView(r: DeliveryRow): DeliveryView {
  return {
    deliveryId: r.id,
    eventId: r.event_id,
    kind: r.kind,
    channel: r.channel,
    status: r.status,
    attempts: r.attempts,
    lastError: r.last_error,
    createdAt: iso(r.created_at)!,
    nextAttemptAt: r.status === 'pending' ? iso(r.next_attempt_at) : null,
    sentAt: iso(r.sent_at),
    deadAt: iso(r.dead_at),
  };
}

/** The person's deliveries on the project, newest first (the delivery log; `dead`: the dead letters). */
export async function listDeliveries(
  ds: DataSource,
  projectId: string,
  userId: string,
  status: DeliveryListFilter,
  limit: number,
): Promise<DeliveryListReply> {
  const filter = status === 'all' ? null : status;
  const [items, [count]] = await Promise.all([
    ds.query(
      `SELECT id, event_id, kind, channel, status, attempts, last_error, created_at, next_attempt_at, sent_at, dead_at
         FROM notification_delivery
        WHERE project_id = $1 AND recipient_user_id = $2 AND ($3::text IS NULL OR status = $3)
        ORDER BY created_at DESC, id DESC LIMIT $4`,
      [projectId, userId, filter, limit],
    ) as Promise<DeliveryRow[]>,
    ds.query(
      `SELECT count(*)::int AS n FROM notification_delivery
        WHERE project_id = $1 AND recipient_user_id = $2 AND ($3::text IS NULL OR status = $3)`,
      [projectId, userId, filter],
    ) as Promise<{ n: number }[]>,
  ]);
  return { items: items.map(toView), total: count?.n ?? 0, limit };
}

/**
 * Sends a delivery again (a dead letter once the receiver is fixed, or a sent one a receiver lost):
 * back to `pending`, due now, attempts from zero, same id. One still pending is left alone (it
 * may be in flight). `null`: no such delivery of this person on this project.
 */
export async function redeliver(
  ds: DataSource,
  projectId: string,
  userId: string,
  id: string,
): Promise<'pending' | null> {
  const rows: { status: DeliveryStatus }[] = await ds.query(
    `WITH target AS (
       SELECT id, status FROM notification_delivery
        WHERE id = $1 AND project_id = $2 AND recipient_user_id = $3 FOR UPDATE
     ), reset AS (
       UPDATE notification_delivery d
          SET status = 'pending', attempts = 0, next_attempt_at = now(), dead_at = NULL, digest_id = NULL
         FROM target WHERE d.id = target.id AND target.status <> 'pending'
       RETURNING d.id
     )
     SELECT status FROM target`,
    [id, projectId, userId],
  );
  return rows.length === 0 ? null : 'pending';
}
