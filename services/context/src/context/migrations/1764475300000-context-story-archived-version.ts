import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * SPEC §11.3 archive door: `archived` gets its own version (`archived_at`, `archived_event_id`),
 * written by the newest of the engine's upserts and this service's `story.archived`. An archive
 * then never holds back an older upsert's status or rules delivered late, and a replay gives the
 * same flag whatever order it applies archives and upserts in. Existing rows take their
 * snapshot's version (the upsert that wrote their flag).
 */
export class ContextStoryArchivedVersion1764475300000 implements MigrationInterface {
  name = 'ContextStoryArchivedVersion1764475300000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE context_story ADD COLUMN archived_at timestamptz, ADD COLUMN archived_event_id uuid`,
    );
    await q.query(
      `UPDATE context_story SET archived_at = snapshot_at, archived_event_id = snapshot_event_id`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE context_story DROP COLUMN archived_at, DROP COLUMN archived_event_id`);
  }
}
