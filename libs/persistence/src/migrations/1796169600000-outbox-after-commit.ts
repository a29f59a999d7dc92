import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Outbox rows published right after their commit (docs/decisions.md, "Publish right after
 * commit"): `relay_after` says when the relay may take a row (at once, unless the committing
 * process said it publishes the row itself); the insert finds the unpublished rows of its
 * subjects by `outbox_unpublished_subject`; NOTIFY wakes the relay only for rows it must take at once.
 */
export class OutboxAfterCommit1796169600000 implements MigrationInterface {
  name = 'OutboxAfterCommit1796169600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE outbox ADD COLUMN relay_after timestamptz NOT NULL DEFAULT now()`);
    await q.query(
      `CREATE INDEX outbox_unpublished_subject ON outbox (subject, id) WHERE published_at IS NULL`,
    );
    await q.query(`DROP TRIGGER outbox_notify ON outbox`);
    await q.query(
      `CREATE TRIGGER outbox_notify AFTER INSERT ON outbox FOR EACH ROW
         WHEN (NEW.relay_after <= NEW.created_at) EXECUTE FUNCTION outbox_notify()`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER outbox_notify ON outbox`);
    await q.query(
      `CREATE TRIGGER outbox_notify AFTER INSERT ON outbox FOR EACH STATEMENT EXECUTE FUNCTION outbox_notify()`,
    );
    await q.query(`DROP INDEX outbox_unpublished_subject`);
    await q.query(`ALTER TABLE outbox DROP COLUMN relay_after`);
  }
}
