import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * SPEC §11.6: delegation grants are log events (`delegation.granted`, `delegation.revoked`),
 * append-only like the question log: the database refuses UPDATE, DELETE and TRUNCATE (the
 * question log's trigger function, which names the table), and its unique indexes keep one
 * grant and at most one revocation per grant id under any concurrency. There is no read model:
 * a project's grants are few, and every read folds them from this table (so `openq replay` has
 * nothing to rebuild for them).
 */
export class DelegationLog1764510000000 implements MigrationInterface {
  name = 'DelegationLog1764510000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE delegation_log (
        position bigserial PRIMARY KEY,
        event_id uuid NOT NULL UNIQUE,
        project_id text NOT NULL,
        grant_id uuid NOT NULL,
        type text NOT NULL CHECK (type IN ('delegation.granted', 'delegation.revoked')),
        data jsonb NOT NULL,
        recorded_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(
      `CREATE UNIQUE INDEX delegation_log_one_grant ON delegation_log (grant_id) WHERE type = 'delegation.granted'`,
    );
    await q.query(
      `CREATE UNIQUE INDEX delegation_log_one_revocation ON delegation_log (grant_id) WHERE type = 'delegation.revoked'`,
    );
    await q.query(`
      CREATE INDEX delegation_log_from ON delegation_log (project_id, (data->>'from'), (data->>'to'))
        WHERE type = 'delegation.granted'`);
    await q.query(`
      CREATE INDEX delegation_log_to ON delegation_log (project_id, (data->>'to'))
        WHERE type = 'delegation.granted'`);
    await q.query(`
      CREATE FUNCTION delegation_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'delegation_log is append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
      END $$`);
    await q.query(`
      CREATE TRIGGER delegation_log_no_update_delete BEFORE UPDATE OR DELETE ON delegation_log
        FOR EACH ROW EXECUTE FUNCTION delegation_log_append_only()`);
    await q.query(`
      CREATE TRIGGER delegation_log_no_truncate BEFORE TRUNCATE ON delegation_log
        FOR EACH STATEMENT EXECUTE FUNCTION delegation_log_append_only()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE delegation_log`);
    await q.query(`DROP FUNCTION delegation_log_append_only()`);
  }
}
