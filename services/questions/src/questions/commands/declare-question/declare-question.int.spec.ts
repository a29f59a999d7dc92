import type { DataSource } from 'typeorm';
import { useQuestionsDatabase } from '../../testing/questions-database';
import { OutboxWriter } from '@openq/messaging';
import { declareIn } from '../../testing/declare-in';
import { countRoundTrips } from '../../testing/round-trips';
import { declareQuestion, declareQuestions, type DeclareResult } from './declare-question.handler';

let ds: DataSource;
useQuestionsDatabase((opened) => (ds = opened), { poolSize: 25 });

function declare(projectId: string, toolCallId: string | null, pergunta: string): Promise<DeclareResult> {
  return declareIn(ds, projectId, { pergunta, toolCallId });
}

async function count(sql: string, params: unknown[]): Promise<number> {
  const [row] = await ds.query(sql, params);
  return Number((row as { n: string }).n);
}

describe('declareQuestion', () => {
  it('declares one question for 20 concurrent declarations with the same toolCallId, and gives every caller its id', async () => {
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => declare('p1', 'tc-same', `the same question, try ${i}`)),
    );
    const ids = new Set(results.map((r) => r.questionId));
    expect(ids.size).toBe(1);
    expect(results.filter((r) => r.created)).toHaveLength(1);
    expect(
      await count(
        `SELECT count(*) AS n FROM question_log WHERE project_id = 'p1' AND type = 'question.declared'`,
        [],
      ),
    ).toBe(1);
    expect(await count(`SELECT count(*) AS n FROM question_view WHERE project_id = 'p1'`, [])).toBe(1);
    expect(await count(`SELECT open AS n FROM question_counts WHERE project_id = 'p1'`, [])).toBe(1);
    expect(await count(`SELECT count(*) AS n FROM outbox WHERE subject = 'question.declared.p1'`, [])).toBe(
      1,
    );
    // the one row published is the winner's: its message id is the log's id of the declaration
    expect(
      await count(
        `SELECT count(*) AS n FROM outbox o JOIN question_log l ON l.event_id = o.event_id
          WHERE o.subject = 'question.declared.p1' AND l.question_id = $1`,
        [results[0]!.questionId],
      ),
    ).toBe(1);
  });

  it('counts its statements (six to declare, four to find the earlier one) and the round trips it waits for', async () => {
    const statements = (toolCallId: string) =>
      countRoundTrips(ds, async (m) => {
        const outbox = new OutboxWriter(m);
        const result = await declareQuestion(
          m,
          outbox,
          'p4',
          {
            sessionId: 's',
            sessionAuthorId: 'ana',
            autor: 'po',
            origin: 'tool',
            pergunta: 'counted',
            sugestao: null,
            afeta: { regras: [], historias: [], tarefas: [] },
            toolCallId,
          },
          new Date(),
        );
        await outbox.flush();
        return result;
      });
    const first = await statements('tc-counted');
    // §12.3 the project's declaration lock, the tool call's earlier outcome, the candidates; insert; view
    // and counts; the outbox. The lock goes ahead of the look-up, the view and the outbox ahead of the
    // COMMIT: three waits.
    expect(first).toMatchObject({ result: { created: true }, statements: 6, waits: 3 });
    const again = await statements('tc-counted');
    // The lock, the earlier outcome (found), the question's lock and its load; nothing written.
    expect(again).toMatchObject({
      result: { questionId: first.result.questionId, created: false },
      statements: 4,
      waits: 2,
    });
  });

  it('keeps toolCallIds per project, and never merges declarations without one', async () => {
    const a = await declare('p2', 'tc-x', 'in p2');
    const b = await declare('p3', 'tc-x', 'in p3');
    expect(a.questionId).not.toBe(b.questionId);
    expect([a.created, b.created]).toEqual([true, true]);
    const loose = await Promise.all([declare('p2', null, 'no key 1'), declare('p2', null, 'no key 2')]);
    expect(loose.every((r) => r.created)).toBe(true);
    expect(loose[0]!.questionId).not.toBe(loose[1]!.questionId);
    expect(await count(`SELECT count(*) AS n FROM question_log WHERE project_id = 'p2'`, [])).toBe(3);
  });

  it('joins the repeat of one question among hundreds alike but for a number (§12.3, the bands carry the numbers)', async () => {
    const text = (n: number) => `Which status code should the archive return for case ${n} of the import?`;
    const first = [];
    for (let n = 1; n <= 300; n++) first.push(await declare('p-cases', `tc-case-${n}`, text(n)));
    // Other numbers, other questions: none joined another.
    expect(first.every((r) => r.created && !r.joined)).toBe(true);
    // Another agent asks case 150 again: it meets the one question with its number, however many
    // near ones the project holds (the index used to hand over 100 of the 300, any 100).
    const again = await declare('p-cases', 'tc-case-150-again', text(150));
    expect(again).toMatchObject({ questionId: first[149]!.questionId, joined: true });
  });

  it('in one group of 400 declarations of one project, each repeat joins its own question (the group meets itself by bands)', async () => {
    const text = (n: number) => `Which status code should the archive return for case ${n} of the import?`;
    const reworded = (n: number) =>
      `For case ${n} of the import, which status codes should the archive return?`;
    // 200 questions alike but for a number, then each asked again in other words, in one group commit.
    const asked = [
      ...Array.from({ length: 200 }, (_, n) => ({ toolCallId: `tc-g-${n}`, pergunta: text(n) })),
      ...Array.from({ length: 200 }, (_, n) => ({ toolCallId: `tc-g-${n}-again`, pergunta: reworded(n) })),
    ];
    const results = await ds.transaction(async (m) => {
      const outbox = new OutboxWriter(m);
      const out = await declareQuestions(
        m,
        asked.map(({ toolCallId, pergunta }) => ({
          projectId: 'p-group',
          outbox,
          input: {
            sessionId: 's',
            sessionAuthorId: 'ana',
            autor: 'po' as const,
            origin: 'tool' as const,
            pergunta,
            sugestao: null,
            afeta: { regras: [], historias: [], tarefas: [] },
            toolCallId,
          },
        })),
        new Date(),
      );
      await outbox.flush();
      return out;
    });
    const firsts = results.slice(0, 200);
    expect(firsts.every((r) => r.created && !r.joined)).toBe(true);
    expect(new Set(firsts.map((r) => r.questionId)).size).toBe(200);
    results
      .slice(200)
      .forEach((r, n) => expect(r).toMatchObject({ questionId: firsts[n]!.questionId, joined: true }));
    expect(
      await count(
        `SELECT count(*) AS n FROM question_view WHERE project_id = 'p-group' AND status = 'open'`,
        [],
      ),
    ).toBe(200);
  });
});
