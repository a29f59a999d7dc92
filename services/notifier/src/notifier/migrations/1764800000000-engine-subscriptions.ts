import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue #34 (SPEC §12.5) engines on HTTP alone: each engine's subscription (where its events go,
 * of which projects and types), and one delivery per (engine, event) under a unique key — sent in
 * stream order per subject (`stream_seq`), retried like a notification.
 */
export class EngineSubscriptions1764800000000 implements MigrationInterface {
  name = 'EngineSubscriptions1764800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE engine_subscription (
        engine_id text PRIMARY KEY,
        url text NOT NULL,
        secret text NOT NULL,
        projects text[] NOT NULL,
        events text[] NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE engine_delivery (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        engine_id text NOT NULL,
        event_id uuid NOT NULL,
        type text NOT NULL,
        subject text NOT NULL,
        stream_seq bigint NOT NULL,
        body text NOT NULL,
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'dead')),
        attempts integer NOT NULL DEFAULT 0,
        next_attempt_at timestamptz NOT NULL DEFAULT now(),
        last_error text,
        created_at timestamptz NOT NULL DEFAULT now(),
        sent_at timestamptz,
        dead_at timestamptz,
        CONSTRAINT engine_delivery_once UNIQUE (engine_id, event_id)
      )`);
    await q.query(
      `CREATE INDEX engine_delivery_due ON engine_delivery (next_attempt_at) WHERE status = 'pending'`,
    );
    await q.query(
      `CREATE INDEX engine_delivery_subject ON engine_delivery (engine_id, subject, stream_seq) WHERE status = 'pending'`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE engine_delivery`);
    await q.query(`DROP TABLE engine_subscription`);
  }
}
