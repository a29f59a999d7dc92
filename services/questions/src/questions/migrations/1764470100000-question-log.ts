import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The append-only question log and its read model. The log is the source of truth: the
 * database itself refuses UPDATE, DELETE and TRUNCATE on it, and its unique indexes make
 * "one declaration per toolCallId" and "exactly one answer per question" hold under any
 * concurrency. The view and the counters are caches rebuilt from the log by `openq replay`.
 */
export class QuestionLog1764470100000 implements MigrationInterface {
  name = 'QuestionLog1764470100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE question_log (
        position bigserial PRIMARY KEY,
        event_id uuid NOT NULL UNIQUE,
        project_id text NOT NULL,
        question_id uuid NOT NULL,
        type text NOT NULL CHECK (type IN ('question.declared', 'question.answered', 'decision.recorded')),
        data jsonb NOT NULL,
        recorded_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(
      `CREATE UNIQUE INDEX question_log_one_declaration ON question_log (question_id) WHERE type = 'question.declared'`,
    );
    await q.query(
      `CREATE UNIQUE INDEX question_log_one_answer ON question_log (question_id) WHERE type = 'question.answered'`,
    );
    await q.query(
      `CREATE UNIQUE INDEX question_log_one_decision ON question_log (question_id) WHERE type = 'decision.recorded'`,
    );
    await q.query(`
      CREATE UNIQUE INDEX question_log_tool_call ON question_log (project_id, (data->>'toolCallId'))
        WHERE type = 'question.declared' AND data->>'toolCallId' IS NOT NULL`);
    await q.query(`CREATE INDEX question_log_question ON question_log (question_id, position)`);
    await q.query(`
      CREATE FUNCTION question_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'question_log is append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
      END $$`);
    await q.query(`
      CREATE TRIGGER question_log_no_update_delete BEFORE UPDATE OR DELETE ON question_log
        FOR EACH ROW EXECUTE FUNCTION question_log_append_only()`);
    await q.query(`
      CREATE TRIGGER question_log_no_truncate BEFORE TRUNCATE ON question_log
        FOR EACH STATEMENT EXECUTE FUNCTION question_log_append_only()`);

    await q.query(`
      CREATE TABLE question_view (
        question_id uuid PRIMARY KEY,
        project_id text NOT NULL,
        declared_position bigint NOT NULL,
        status text NOT NULL,
        declared jsonb NOT NULL,
        answered jsonb,
        last_position bigint NOT NULL
      )`);
    await q.query(
      `CREATE INDEX question_view_by_status ON question_view (project_id, status, declared_position)`,
    );
    await q.query(`CREATE INDEX question_view_all ON question_view (project_id, declared_position)`);
    await q.query(`
      CREATE TABLE question_counts (
        project_id text PRIMARY KEY,
        open integer NOT NULL DEFAULT 0,
        answered integer NOT NULL DEFAULT 0
      )`);
    await q.query(`
      CREATE TABLE projection_state (
        name text PRIMARY KEY,
        position bigint NOT NULL,
        rebuilt_at timestamptz
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE projection_state`);
    await q.query(`DROP TABLE question_counts`);
    await q.query(`DROP TABLE question_view`);
    await q.query(`DROP TRIGGER question_log_no_truncate ON question_log`);
    await q.query(`DROP TRIGGER question_log_no_update_delete ON question_log`);
    await q.query(`DROP FUNCTION question_log_append_only()`);
    await q.query(`DROP TABLE question_log`);
  }
}
