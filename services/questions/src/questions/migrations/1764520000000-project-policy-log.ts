import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * SPEC §12.1: a project's policies are log events (`project.policy_changed`), append-only like
 * the question log: the database refuses UPDATE, DELETE and TRUNCATE. No read model: a project's
 * changes are few, and every read folds them (a project with none keeps the seeds' rules).
 */
export class ProjectPolicyLog1764520000000 implements MigrationInterface {
  name = 'ProjectPolicyLog1764520000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE project_policy_log (
        position bigserial PRIMARY KEY,
        event_id uuid NOT NULL UNIQUE,
        project_id text NOT NULL,
        type text NOT NULL CHECK (type IN ('project.policy_changed')),
        data jsonb NOT NULL,
        recorded_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX project_policy_log_project ON project_policy_log (project_id, position)`);
    await q.query(`
      CREATE FUNCTION project_policy_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'project_policy_log is append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
      END $$`);
    await q.query(`
      CREATE TRIGGER project_policy_log_no_update_delete BEFORE UPDATE OR DELETE ON project_policy_log
        FOR EACH ROW EXECUTE FUNCTION project_policy_log_append_only()`);
    await q.query(`
      CREATE TRIGGER project_policy_log_no_truncate BEFORE TRUNCATE ON project_policy_log
        FOR EACH STATEMENT EXECUTE FUNCTION project_policy_log_append_only()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE project_policy_log`);
    await q.query(`DROP FUNCTION project_policy_log_append_only()`);
  }
}
