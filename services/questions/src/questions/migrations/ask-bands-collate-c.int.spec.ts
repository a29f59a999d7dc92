import type { DataSource } from 'typeorm';
import { useQuestionsDatabase } from '../testing/questions-database';
import { declareIn } from '../testing/declare-in';
import { askBands, askKey } from '../domain/same-question';
import { candidatesFor } from '../store/ask-once.store';

let ds: DataSource;
useQuestionsDatabase((opened) => (ds = opened));

/*
 * `ask_bands` is compared bytewise (AskBandsCollateC1764560000000): the ask-once look-up still
 * goes through the GIN index `question_view_ask`, and still finds the near question.
 */
describe('migration AskBandsCollateC1764560000000', () => {
  it('keeps the bands bytewise, and the look-up on question_view_ask finds the near question', async () => {
    const [{ collation }] = (await ds.query(
      `SELECT collation_name AS collation FROM information_schema.columns
        WHERE table_schema = current_schema() AND table_name = 'question_view' AND column_name = 'ask_bands'`,
    )) as [{ collation: string }];
    expect(collation).toBe('C');

    for (let i = 0; i < 40; i++)
      await declareIn(ds, 'p-col', {
        pergunta: `Which cache size applies to shard ${i}?`,
        toolCallId: `tc-${i}`,
      });
    const { questionId } = await declareIn(ds, 'p-col', {
      pergunta: 'Should the nightly export keep the archived invoices?',
      toolCallId: 'tc-near',
    });
    await ds.query('ANALYZE question_view');

    const probe = 'Should the nightly export keep archived invoices?';
    const key = askKey(probe);
    const [found] = await ds.transaction((m) =>
      candidatesFor(m, [{ projectId: 'p-col', key, bands: askBands('p-col', key) }]),
    );
    expect(found!.map((c) => c.questionId)).toContain(questionId);

    const plan = (await ds.transaction(async (m) => {
      await m.query('SET LOCAL enable_seqscan = off');
      return m.query(
        `EXPLAIN SELECT question_id FROM question_view
          WHERE ask_bands && ARRAY(SELECT jsonb_array_elements_text($1::jsonb)) AND status IN ('open', 'answered')`,
        [JSON.stringify(askBands('p-col', key))],
      );
    })) as { 'QUERY PLAN': string }[];
    expect(plan.map((r) => r['QUERY PLAN']).join('\n')).toContain('question_view_ask');
  });
});
