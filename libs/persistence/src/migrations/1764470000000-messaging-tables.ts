import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Outbox, inbox and dead letters: every service's first migration. */
export class MessagingTables1764470000000 implements MigrationInterface {
  name = 'MessagingTables1764470000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE outbox (
        id bigserial PRIMARY KEY,
        event_id uuid NOT NULL UNIQUE,
        subject text NOT NULL,
        envelope jsonb NOT NULL,
        headers jsonb NOT NULL DEFAULT '{}'::jsonb,
        created_at timestamptz NOT NULL DEFAULT now(),
        published_at timestamptz
      )`);
    await q.query(`CREATE INDEX outbox_unpublished ON outbox (id) WHERE published_at IS NULL`);
    // Wake the relay on commit: NOTIFY is delivered only when the inserting transaction commits.
    await q.query(`
      CREATE FUNCTION outbox_notify() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('openq_outbox_' || TG_TABLE_SCHEMA, '');
        RETURN NULL;
      END $$`);
    await q.query(
      `CREATE TRIGGER outbox_notify AFTER INSERT ON outbox FOR EACH STATEMENT EXECUTE FUNCTION outbox_notify()`,
    );
    await q.query(`
      CREATE TABLE inbox (
        consumer text NOT NULL,
        message_id text NOT NULL,
        processed_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (consumer, message_id)
      )`);
    await q.query(`
      CREATE TABLE dead_letter (
        id bigserial PRIMARY KEY,
        consumer text NOT NULL,
        subject text NOT NULL,
        stream_seq bigint,
        message_id text,
        reason text NOT NULL,
        message text NOT NULL,
        payload text NOT NULL,
        deliveries integer NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX dead_letter_consumer ON dead_letter (consumer, created_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE dead_letter`);
    await q.query(`DROP TABLE inbox`);
    await q.query(`DROP TRIGGER outbox_notify ON outbox`);
    await q.query(`DROP FUNCTION outbox_notify()`);
    await q.query(`DROP TABLE outbox`);
  }
}
