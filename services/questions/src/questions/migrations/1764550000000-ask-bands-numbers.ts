import type { MigrationInterface, QueryRunner } from 'typeorm';
import { askBands } from '../domain/same-question';

/**
 * SPEC §12.3 "Ask once": a question's MinHash bands are salted with the numbers of its key too
 * (`askBands`; docs/decisions.md "Ask once: the bands carry the numbers"), so the questions whose
 * `ask_key` holds a number get their `ask_bands` computed again, by the function the projector
 * uses; the others' bands are unchanged. In pages of 5,000 by id, so a big view is never read at
 * once. `down` leaves the bands (the old salt is gone; `openq replay` rebuilds).
 */
export class AskBandsNumbers1764550000000 implements MigrationInterface {
  name = 'AskBandsNumbers1764550000000';
  /** Rows read and written per statement. */
  pageSize = 5000;

  async up(q: QueryRunner): Promise<void> {
    let after = '00000000-0000-0000-0000-000000000000';
    for (;;) {
      const rows = (await q.query(
        `SELECT question_id, project_id, ask_key FROM question_view
          WHERE question_id > $1 AND ask_key ~ '(^| )[0-9]+( |$)' ORDER BY question_id LIMIT $2`,
        [after, this.pageSize],
      )) as { question_id: string; project_id: string; ask_key: string }[];
      if (rows.length === 0) return;
      await q.query(
        `UPDATE question_view v SET ask_bands = ARRAY(SELECT jsonb_array_elements_text(t.b))
           FROM unnest($1::uuid[], $2::jsonb[]) AS t(id, b) WHERE v.question_id = t.id`,
        [rows.map((r) => r.question_id), rows.map((r) => JSON.stringify(askBands(r.project_id, r.ask_key)))],
      );
      after = rows[rows.length - 1]!.question_id;
    }
  }

  async down(): Promise<void> {
    // The bands stay: see above.
  }
}
