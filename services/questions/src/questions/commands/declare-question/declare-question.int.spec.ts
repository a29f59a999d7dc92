import type { DataSource } from 'typeorm';
import { openDatabase } from '@openq/persistence';
import { createTestDatabase, type TestDatabase } from '@openq/testing';
import { QuestionLog1764470100000 } from '../../migrations/1764470100000-question-log';
import { declareIn } from '../../testing/declare-in';
import type { DeclareResult } from './declare-question.handler';

let db: TestDatabase;
let ds: DataSource;

beforeAll(async () => {
  db = await createTestDatabase();
  ds = await openDatabase({
    url: db.url,
    schema: 'questions',
    migrations: [QuestionLog1764470100000],
    poolSize: 25,
  });
});
afterAll(async () => {
  await ds.destroy();
  await db.drop();
});

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
});
