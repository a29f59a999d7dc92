import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue #17 the notifier's own schema: its copy of the declared questions (who to tell about a
 * parked gate), each person's channels per project, and the deliveries — one row per (event,
 * channel, recipient) under a unique key: the sent-once guarantee.
 */
export class NotifierTables1764500000000 implements MigrationInterface {
  name = 'NotifierTables1764500000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE notifier_question (
        question_id uuid PRIMARY KEY,
        project_id text NOT NULL,
        session_author_id text NOT NULL,
        autor text NOT NULL,
        pergunta text NOT NULL,
        sugestao text,
        afeta jsonb NOT NULL,
        origin text NOT NULL,
        declared_at timestamptz NOT NULL
      )`);
    await q.query(`
      CREATE TABLE notification_channel (
        project_id text NOT NULL,
        user_id text NOT NULL,
        kind text NOT NULL CHECK (kind IN ('email', 'slack', 'webhook')),
        target jsonb NOT NULL,
        enabled boolean NOT NULL DEFAULT true,
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (project_id, user_id, kind)
      )`);
    await q.query(`
      CREATE TABLE notification_delivery (
        id uuid PRIMARY KEY,
        event_id uuid NOT NULL,
        project_id text NOT NULL,
        recipient_user_id text NOT NULL,
        channel text NOT NULL CHECK (channel IN ('email', 'slack', 'webhook')),
        kind text NOT NULL,
        notification jsonb NOT NULL,
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'dead')),
        attempts integer NOT NULL DEFAULT 0,
        next_attempt_at timestamptz NOT NULL DEFAULT now(),
        last_error text,
        occurred_at timestamptz NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        sent_at timestamptz,
        dead_at timestamptz,
        CONSTRAINT notification_delivery_once UNIQUE (event_id, channel, recipient_user_id)
      )`);
    await q.query(
      `CREATE INDEX notification_delivery_due ON notification_delivery (next_attempt_at) WHERE status = 'pending'`,
    );
    await q.query(
      `CREATE INDEX notification_delivery_recipient ON notification_delivery (project_id, recipient_user_id, created_at DESC, id DESC)`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE notification_delivery`);
    await q.query(`DROP TABLE notification_channel`);
    await q.query(`DROP TABLE notifier_question`);
  }
}
