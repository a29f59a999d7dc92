import type { MigrationInterface, QueryRunner } from 'typeorm';
import { askBands } from '../domain/same-question';

/**
 * SPEC §12.3 "Ask once": the MinHash bands changed (32 bands of 3 over the trigrams that do not
 * start with a blank, instead of 16 of 2 over all; docs/decisions.md "Ask once, finished"), so
 * every question's `ask_bands` is computed again from its `ask_key`, by the same function the
 * projector uses. A band list from before would find nothing: both sides must hash
 * the same way. `down` leaves the new bands (the old function is gone; `openq replay` rebuilds).
 */
export class AskBandsV21764540000000 implements MigrationInterface {
  name = 'AskBandsV21764540000000';

  async up(q: QueryRunner): Promise<void> {
    const rows = (await q.query(`SELECT question_id, project_id, ask_key FROM question_view`)) as {
      question_id: string;
      project_id: string;
      ask_key: string;
    }[];
    for (let i = 0; i < rows.length; i += 5000) {
      const chunk = rows.slice(i, i + 5000);
      await q.query(
        `UPDATE question_view v SET ask_bands = ARRAY(SELECT jsonb_array_elements_text(t.b))
           FROM unnest($1::uuid[], $2::jsonb[]) AS t(id, b) WHERE v.question_id = t.id`,
        [
          chunk.map((r) => r.question_id),
          chunk.map((r) => JSON.stringify(askBands(r.project_id, r.ask_key))),
        ],
      );
    }
  }

  async down(): Promise<void> {
    // Nothing to undo: the bands of before are not computed any more (see above).
  }
}
