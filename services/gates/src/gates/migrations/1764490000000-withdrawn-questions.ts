import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * SPEC §11.5: the withdrawals the gates service has heard of (`question.withdrawn`), as
 * `answered_questions` keeps the answers, so a question withdrawn before the verdict that cites it
 * is linked never parks the cycle. A withdrawn question has no decision, hence its own table.
 */
export class WithdrawnQuestions1764490000000 implements MigrationInterface {
  name = 'WithdrawnQuestions1764490000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE withdrawn_questions (
        project_id text NOT NULL,
        question_id uuid NOT NULL,
        withdrawn_at timestamptz NOT NULL,
        recorded_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (project_id, question_id)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE withdrawn_questions`);
  }
}
