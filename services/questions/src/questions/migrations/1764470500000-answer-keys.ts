import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `Idempotency-Key`s of answering clicks: the first answer a (project, user, key) recorded, so
 * that the same request sent again (a retry after a lost reply) gets that answer back instead of
 * 409. Request state, not a projection: not rebuilt by `openq replay`; kept for 24 hours.
 */
export class AnswerKeys1764470500000 implements MigrationInterface {
  name = 'AnswerKeys1764470500000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE answer_key (
        project_id text NOT NULL,
        user_id text NOT NULL,
        idempotency_key text NOT NULL,
        question_id uuid NOT NULL,
        fingerprint text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (project_id, user_id, idempotency_key)
      )`);
    await q.query(`CREATE INDEX answer_key_created ON answer_key (created_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE answer_key`);
  }
}
