import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue #34 (SPEC §12.5) each person's Slack member id, linked in their settings: a click on a
 * Slack button answers as the openq user it is linked to. One openq user per Slack member id.
 */
export class SlackLinks1764900000000 implements MigrationInterface {
  name = 'SlackLinks1764900000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE slack_link (
        user_id text PRIMARY KEY,
        slack_user_id text NOT NULL CONSTRAINT slack_link_once UNIQUE,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE slack_link`);
  }
}
