import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue #17 digest e-mails: a digest row fixes which deliveries one digest e-mail lists, in the
 * same transaction that claims them, before anything is sent — a retry after a crash sends the
 * same set under the same id (its Message-ID).
 */
export class NotificationDigests1764600000000 implements MigrationInterface {
  name = 'NotificationDigests1764600000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE notification_digest (
        id text PRIMARY KEY,
        project_id text NOT NULL,
        recipient_user_id text NOT NULL,
        mode text NOT NULL CHECK (mode IN ('hourly', 'daily')),
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'dead')),
        attempts integer NOT NULL DEFAULT 0,
        next_attempt_at timestamptz NOT NULL DEFAULT now(),
        last_error text,
        created_at timestamptz NOT NULL DEFAULT now(),
        sent_at timestamptz,
        dead_at timestamptz
      )`);
    await q.query(
      `CREATE INDEX notification_digest_due ON notification_digest (next_attempt_at) WHERE status = 'pending'`,
    );
    await q.query(
      `ALTER TABLE notification_delivery ADD COLUMN digest_id text REFERENCES notification_digest (id)`,
    );
    await q.query(
      `CREATE INDEX notification_delivery_digest ON notification_delivery (digest_id) WHERE digest_id IS NOT NULL`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE notification_delivery DROP COLUMN digest_id`);
    await q.query(`DROP TABLE notification_digest`);
  }
}
