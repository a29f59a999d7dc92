import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * SPEC §11.5: a question may be withdrawn (`question.withdrawn`) instead of answered. The log
 * admits the new type, and one more unique index makes "answered or withdrawn, at most once, never
 * both" hold under any concurrency, as `question_log_one_answer` does for answers (the question's
 * lock serialises the doors; the index is the backstop). The view keeps the withdrawal, the
 * counters count withdrawn questions apart (they are not open). Rows written before stay valid.
 */
export class QuestionWithdrawn1764490000000 implements MigrationInterface {
  name = 'QuestionWithdrawn1764490000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE question_log DROP CONSTRAINT question_log_type_check`);
    await q.query(`
      ALTER TABLE question_log ADD CONSTRAINT question_log_type_check
        CHECK (type IN ('question.declared', 'question.answered', 'decision.recorded', 'question.withdrawn'))`);
    await q.query(`
      CREATE UNIQUE INDEX question_log_one_closing ON question_log (question_id)
        WHERE type IN ('question.answered', 'question.withdrawn')`);
    await q.query(`ALTER TABLE question_view ADD COLUMN withdrawn jsonb`);
    await q.query(`ALTER TABLE question_counts ADD COLUMN withdrawn integer NOT NULL DEFAULT 0`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE question_counts DROP COLUMN withdrawn`);
    await q.query(`ALTER TABLE question_view DROP COLUMN withdrawn`);
    await q.query(`DROP INDEX question_log_one_closing`);
    await q.query(`ALTER TABLE question_log DROP CONSTRAINT question_log_type_check`);
    await q.query(`
      ALTER TABLE question_log ADD CONSTRAINT question_log_type_check
        CHECK (type IN ('question.declared', 'question.answered', 'decision.recorded'))`);
  }
}
