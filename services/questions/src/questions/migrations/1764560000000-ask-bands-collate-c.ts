import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue #29: `ask_bands` compared bytewise (`COLLATE "C"`). A band is a base-36 hash (`askBands`),
 * so only equality matters and bytewise equality is the same; the GIN index `question_view_ask`
 * takes 32 entries per declaration (and again per answer, whose update is not HOT), and under the
 * database's collation each comparison went through the locale. Measured:
 * `node dist/test/bench/micro/declaration-indexes.js` (docs/performance.md, session 18). The type is
 * the same, so the table is not rewritten; the index is rebuilt.
 */
export class AskBandsCollateC1764560000000 implements MigrationInterface {
  name = 'AskBandsCollateC1764560000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE question_view ALTER COLUMN ask_bands TYPE text[] COLLATE "C"`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE question_view ALTER COLUMN ask_bands TYPE text[] COLLATE "default"`);
  }
}
