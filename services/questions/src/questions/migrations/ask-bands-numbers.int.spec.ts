import type { DataSource } from 'typeorm';
import { useQuestionsDatabase } from '../testing/questions-database';
import { declareIn } from '../testing/declare-in';
import { askBands, askKey } from '../domain/same-question';
import { AskBandsNumbers1764550000000 } from './1764550000000-ask-bands-numbers';

let ds: DataSource;
useQuestionsDatabase((opened) => (ds = opened));

describe('migration AskBandsNumbers1764550000000', () => {
  it("computes again the bands of every question whose key holds a number, in pages, and leaves the others' alone", async () => {
    const texts = [
      ...Array.from({ length: 12 }, (_, n) => `Should retries stop after ${n + 1} attempts per hour?`),
      'Should the login page support Google sign-in?',
      'Which colour is the primary button?',
    ];
    for (const [i, pergunta] of texts.entries())
      await declareIn(ds, 'p-mig', { pergunta, toolCallId: `tc-${i}` });
    // What a view written before the numbers were in the salt holds: every band a stale value.
    await ds.query(
      `UPDATE question_view SET ask_bands = ARRAY['stale'] WHERE project_id = 'p-mig' AND ask_key ~ '[0-9]'`,
    );
    const before = await bands();

    const runner = ds.createQueryRunner();
    try {
      const migration = new AskBandsNumbers1764550000000();
      // Pages of 5 here, to cross page boundaries with 12 numbered rows.
      migration.pageSize = 5;
      await migration.up(runner);
    } finally {
      await runner.release();
    }

    const after = await bands();
    for (const row of after) {
      expect(row.ask_bands).toEqual(askBands('p-mig', askKey(row.pergunta)));
      if (!/\d/.test(row.ask_key))
        expect(row.ask_bands).toEqual(before.find((b) => b.question_id === row.question_id)!.ask_bands);
    }
    expect(after.filter((r) => /\d/.test(r.ask_key))).toHaveLength(12);
  });
});

function bands(): Promise<{ question_id: string; ask_key: string; ask_bands: string[]; pergunta: string }[]> {
  return ds.query(
    `SELECT question_id, ask_key, ask_bands, declared->>'pergunta' AS pergunta FROM question_view WHERE project_id = 'p-mig'`,
  );
}
