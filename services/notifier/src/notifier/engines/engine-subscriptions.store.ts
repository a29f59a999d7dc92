import type { EntityManager } from 'typeorm';
import type { EngineSubscriptionView, EventEnvelope, SetEngineSubscriptionCommand } from '@openq/contracts';
import { deferWrite, returnedRows } from '@openq/persistence';

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
 * event) makes a second plan of the same event a no-op. Nothing reads its result, so it is a
 * deferred write (`deferWrite`): a batch's plans go to PostgreSQL in one statement with the
 * consumer's position, and an event no engine subscribes to costs no round trip of its own.
 */
export async function planEngineDeliveries(
  m: EntityManager,
  envelope: EventEnvelope,
  streamSeq: number,
): Promise<void> {
  const family = envelope.type.slice(0, envelope.type.indexOf('.'));
  await deferWrite(
    m,
    `INSERT INTO engine_delivery (engine_id, event_id, type, subject, stream_seq, body)
     SELECT s.engine_id, $1, $2, $3, $4, $5 FROM engine_subscription s
      WHERE $6 = ANY(s.projects) AND ($2 = ANY(s.events) OR $7 = ANY(s.events))
        AND s.created_at <= $8::timestamptz
     ON CONFLICT ON CONSTRAINT engine_delivery_once DO NOTHING`,
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
  );
}

/** Whether any engine subscribes at all (one row is enough). */
export async function anySubscription(m: EntityManager): Promise<boolean> {
  const rows: unknown[] = await m.query(`SELECT 1 FROM engine_subscription LIMIT 1`);
  return rows.length > 0;
}
