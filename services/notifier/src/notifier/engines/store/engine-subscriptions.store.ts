import type { EntityManager } from 'typeorm';
import type { EngineSubscriptionView, EventEnvelope, SetEngineSubscriptionCommand } from '@openq/contracts';
import { deferRows, returnedRows } from '@openq/persistence';

interface SubscriptionRow {
  engine_id: string;
  url: string;
  projects: string[];
  events: string[];
  created_at: Date;
  updated_at: Date;
}

const view = (r: SubscriptionRow): EngineSubscriptionView => ({
  engineId: r.engine_id,
  url: r.url,
  secretSet: true,
  projects: r.projects,
  events: r.events,
  createdAt: new Date(r.created_at).toISOString(),
  updatedAt: new Date(r.updated_at).toISOString(),
});

const COLUMNS = 'engine_id, url, projects, events, created_at, updated_at';

/** Creates or replaces the engine's subscription (it keeps its `created_at`: what it was owed stays owed). */
export async function putSubscription(
  m: EntityManager,
  cmd: SetEngineSubscriptionCommand,
): Promise<EngineSubscriptionView> {
  const [row] = (await m.query(
    `INSERT INTO engine_subscription (engine_id, url, secret, projects, events)
     VALUES ($1, $2, $3, $4::text[], $5::text[])
     ON CONFLICT (engine_id) DO UPDATE
       SET url = EXCLUDED.url, secret = EXCLUDED.secret, projects = EXCLUDED.projects,
           events = EXCLUDED.events, updated_at = now()
     RETURNING ${COLUMNS}`,
    [cmd.engineId, cmd.url, cmd.secret, [...new Set(cmd.projects)], [...new Set(cmd.events)]],
  )) as SubscriptionRow[];
  return view(row!);
}

export async function getSubscription(
  m: EntityManager,
  engineId: string,
): Promise<EngineSubscriptionView | null> {
  const [row] = (await m.query(`SELECT ${COLUMNS} FROM engine_subscription WHERE engine_id = $1`, [
    engineId,
  ])) as SubscriptionRow[];
  return row ? view(row) : null;
}

/** Removes it; its deliveries still pending die with `inscricao_removida` when their turn comes. */
export async function deleteSubscription(m: EntityManager, engineId: string): Promise<boolean> {
  const result: unknown = await m.query(
    `DELETE FROM engine_subscription WHERE engine_id = $1 RETURNING engine_id`,
    [engineId],
  );
  return returnedRows(result).length > 0;
}

/**
 * In the event's inbox transaction: one delivery for each engine subscribed to its project and
 * type since before it happened (an older event is the catch-up route's). The unique key (engine,
 * event) makes a second plan of the same event a no-op. Nothing in the transaction reads it (the
 * sender loop does, in its own): it is a row of a deferred write kept until the transaction's last
 * write (`deferRows`, `untilCommit`), so a batch's events are planned in one statement even when
 * their notices read in between, and an event no engine subscribes to costs no round trip of its own.
 */
export async function planEngineDeliveries(
  m: EntityManager,
  envelope: EventEnvelope,
  streamSeq: number,
): Promise<void> {
  const family = envelope.type.slice(0, envelope.type.indexOf('.'));
  await deferRows(
    m,
    PLAN_ENGINE_DELIVERIES,
    [
      envelope.eventId,
      envelope.type,
      `${envelope.type}.${envelope.projectId}`,
      streamSeq,
      JSON.stringify(envelope),
      envelope.projectId,
      `${family}.*`,
      envelope.occurredAt,
    ],
    { untilCommit: true },
  );
}

const PLAN_ENGINE_DELIVERIES = `INSERT INTO engine_delivery (engine_id, event_id, type, subject, stream_seq, body)
  SELECT s.engine_id, e.event_id, e.type, e.subject, e.stream_seq, e.body
    FROM unnest($1::uuid[], $2::text[], $3::text[], $4::bigint[], $5::text[], $6::text[], $7::text[], $8::timestamptz[])
         AS e (event_id, type, subject, stream_seq, body, project_id, family, occurred_at)
    JOIN engine_subscription s
      ON e.project_id = ANY(s.projects) AND (e.type = ANY(s.events) OR e.family = ANY(s.events))
     AND s.created_at <= e.occurred_at
  ON CONFLICT ON CONSTRAINT engine_delivery_once DO NOTHING`;

/** Whether any engine subscribes at all (one row is enough). */
export async function anySubscription(m: EntityManager): Promise<boolean> {
  const rows: unknown[] = await m.query(`SELECT 1 FROM engine_subscription LIMIT 1`);
  return rows.length > 0;
}
