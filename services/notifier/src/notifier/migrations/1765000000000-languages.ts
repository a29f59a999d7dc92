import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue #30 the language openq writes to a person in (e-mail, Slack, digests, one-tap pages): a
 * person's own, on every project, and a project's, for those who set none. Neither: English.
 */
export class Languages1765000000000 implements MigrationInterface {
  name = 'Languages1765000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE user_language (
        user_id text PRIMARY KEY,
        language text NOT NULL CONSTRAINT user_language_known CHECK (language IN ('en', 'pt-BR')),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE project_language (
        project_id text PRIMARY KEY,
        language text NOT NULL CONSTRAINT project_language_known CHECK (language IN ('en', 'pt-BR')),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE project_language`);
    await q.query(`DROP TABLE user_language`);
  }
}
