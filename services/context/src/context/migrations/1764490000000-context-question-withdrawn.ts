import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * SPEC §11.5: a withdrawn question leaves the askers' open list. The question row keeps when it
 * was withdrawn (null otherwise; `openq replay context` fills it for questions withdrawn before),
 * and the open index leaves withdrawn questions out as it leaves answered ones.
 */
export class ContextQuestionWithdrawn1764490000000 implements MigrationInterface {
  name = 'ContextQuestionWithdrawn1764490000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE context_question ADD COLUMN withdrawn_at timestamptz`);
    await q.query(`DROP INDEX context_question_open`);
    await q.query(`
      CREATE INDEX context_question_open ON context_question (project_id, declared_at DESC, question_id DESC)
        WHERE answered_at IS NULL AND withdrawn_at IS NULL AND declared_at IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX context_question_open`);
    await q.query(`
      CREATE INDEX context_question_open ON context_question (project_id, declared_at DESC, question_id DESC)
        WHERE answered_at IS NULL AND declared_at IS NOT NULL`);
    await q.query(`ALTER TABLE context_question DROP COLUMN withdrawn_at`);
  }
}
