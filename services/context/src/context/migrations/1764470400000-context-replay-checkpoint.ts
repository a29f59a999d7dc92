import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What the last replay of the read models covered (`openq replay context`), one row per stream:
 * the stream sequences it read (`first_seq`..`last_seq`, the stream's range when it started),
 * whether older messages had already left the stream (`partial`), and when it committed.
 */
export class ContextReplayCheckpoint1764470400000 implements MigrationInterface {
  name = 'ContextReplayCheckpoint1764470400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE context_replay_checkpoint (
        stream text PRIMARY KEY,
        first_seq bigint NOT NULL,
        last_seq bigint NOT NULL,
        messages bigint NOT NULL,
        partial boolean NOT NULL,
        replayed_at timestamptz NOT NULL
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE context_replay_checkpoint`);
  }
}
