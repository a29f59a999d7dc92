import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The pipeline profile (SPEC §7, ADR-0053), in the gates schema:
 * - `pipeline_task`: one row per task; `state` holds the whole domain state, the columns next to
 *   it are what the serial gate and the queue query on (written from the same state).
 * - `pipeline_question`: the analyst questions ↔ task link, and every answered question id the
 *   service has seen (an answer can arrive before its link is committed).
 * - `pipeline_repo_freeze`: frozen repos. No event sets them (SPEC has none): operators insert
 *   and delete rows (see services/gates/README.md, "Pipeline profile").
 */
export class PipelineTables1764470300000 implements MigrationInterface {
  name = 'PipelineTables1764470300000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE pipeline_task (
        project_id text NOT NULL,
        task_id text NOT NULL,
        repo text NOT NULL,
        task_order bigint NOT NULL,
        stage text NOT NULL,
        status text,
        paused_at timestamptz,
        pause_source text CHECK (pause_source IN ('engine', 'operator')),
        analyst_running boolean NOT NULL,
        needs_input boolean NOT NULL,
        relaunch_count integer NOT NULL,
        state jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL,
        PRIMARY KEY (project_id, task_id)
      )`);
    await q.query(
      `CREATE INDEX pipeline_task_queue ON pipeline_task (project_id, repo, task_order, task_id)`,
    );
    await q.query(`CREATE INDEX pipeline_task_pending ON pipeline_task (project_id) WHERE stage = 'created'`);
    await q.query(`
      CREATE TABLE pipeline_question (
        project_id text NOT NULL,
        question_id uuid NOT NULL,
        task_id text,
        linked_at timestamptz,
        answered_at timestamptz,
        PRIMARY KEY (project_id, question_id)
      )`);
    await q.query(
      `CREATE INDEX pipeline_question_task ON pipeline_question (project_id, task_id) WHERE task_id IS NOT NULL`,
    );
    await q.query(`
      CREATE TABLE pipeline_repo_freeze (
        project_id text NOT NULL,
        repo text NOT NULL,
        frozen_by text NOT NULL,
        reason text,
        frozen_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (project_id, repo)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE pipeline_repo_freeze`);
    await q.query(`DROP TABLE pipeline_question`);
    await q.query(`DROP TABLE pipeline_task`);
  }
}
