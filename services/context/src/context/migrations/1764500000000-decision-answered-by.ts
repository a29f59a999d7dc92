import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * SPEC §11.6 (issue #17): a delegate's answer records who clicked (`answeredBy`) besides the
 * session author it answered for (`respondida_por`); the decision index keeps it, so the dev
 * kickoff and the QA cut can say who answered for whom. Null for an agent's answer and for
 * decisions indexed before this column existed (`openq replay context` fills it from the stream).
 */
export class ContextDecisionAnsweredBy1764500000000 implements MigrationInterface {
  name = 'ContextDecisionAnsweredBy1764500000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE context_decision ADD COLUMN answered_by text`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE context_decision DROP COLUMN answered_by`);
  }
}
