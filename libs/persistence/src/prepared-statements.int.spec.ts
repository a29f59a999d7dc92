import type { DataSource } from 'typeorm';
import { dropDatabase, openDatabase } from './data-source';
import { ownTestDatabaseUrl } from './own-test-database';

const url = ownTestDatabaseUrl('ps');
let ds: DataSource;

beforeAll(async () => {
  // One pooled connection: every statement below meets the same PostgreSQL session.
  ds = await openDatabase({ url, schema: 'ps', poolSize: 1 });
  await ds.query(`CREATE TABLE t (k text PRIMARY KEY, v int NOT NULL CHECK (v >= 0))`);
});
afterAll(async () => {
  await ds.destroy();
  await dropDatabase(url);
});

/** The statements prepared in the session of the pool's one connection (by their text). */
const preparedTexts = async (): Promise<string[]> =>
  ((await ds.query(`SELECT statement FROM pg_prepared_statements`)) as { statement: string }[]).map(
    (r) => r.statement,
  );

describe('prepared statements (prepareRepeatedStatements, on every pooled connection)', () => {
  const upsert = `INSERT INTO t (k, v) VALUES ($1, $2) ON CONFLICT (k) DO UPDATE SET v = EXCLUDED.v RETURNING v`;

  it('prepares a statement with parameters from its second use, and gives the same results', async () => {
    expect(await ds.query(upsert, ['a', 1])).toEqual([{ v: 1 }]);
    expect(await preparedTexts()).not.toContain(upsert);
    expect(await ds.query(upsert, ['a', 2])).toEqual([{ v: 2 }]);
    expect(await preparedTexts()).toContain(upsert);
    for (let v = 3; v < 10; v++) expect(await ds.query(upsert, ['a', v])).toEqual([{ v }]);
    // past PostgreSQL's five custom plans: the generic one gives the same answers
    expect(await ds.query(`SELECT v FROM t WHERE k = $1`, ['a'])).toEqual([{ v: 9 }]);
    expect(await ds.query(`SELECT v FROM t WHERE k = $1`, ['b'])).toEqual([]);
  });

  it('leaves statements without parameters (BEGIN, COMMIT, DDL) unprepared', async () => {
    await ds.transaction(async (m) => {
      await m.query(`SELECT count(*) FROM t`);
      await m.query(`SELECT count(*) FROM t`);
    });
    const texts = await preparedTexts();
    expect(texts.some((t) => /count\(\*\)|START TRANSACTION|COMMIT/.test(t))).toBe(false);
  });

  it('keeps a prepared statement usable after a failure and a rollback on its connection', async () => {
    const insert = `INSERT INTO t (k, v) VALUES ($1, $2)`;
    await ds.query(insert, ['x1', 1]);
    await ds.query(insert, ['x2', 2]); // prepared now
    await expect(
      ds.transaction(async (m) => {
        await m.query(insert, ['x3', 3]);
        await m.query(insert, ['x4', -1]); // violates the CHECK: the transaction rolls back
      }),
    ).rejects.toThrow(/check constraint/);
    await expect(ds.query(insert, ['x2', 5])).rejects.toThrow(/duplicate key/);
    await ds.query(insert, ['x5', 5]);
    expect(await ds.query(`SELECT k FROM t WHERE k LIKE $1 ORDER BY k`, ['x%'])).toEqual([
      { k: 'x1' },
      { k: 'x2' },
      { k: 'x5' },
    ]);
    expect(await preparedTexts()).toContain(insert);
  });

  it('starts afresh on a new connection after the old one was cut', async () => {
    const read = `SELECT v FROM t WHERE k = $1`;
    await ds.query(read, ['a']);
    await ds.query(read, ['a']);
    expect(await preparedTexts()).toContain(read);
    await ds.query(`SELECT pg_terminate_backend(pg_backend_pid())`).catch(() => undefined); // the pool's one connection ends under it
    // the pool opens a new connection: the name is known to the process, not to the new session
    let rows: unknown;
    for (let attempt = 0; attempt < 3 && rows === undefined; attempt++)
      rows = await ds.query(read, ['a']).catch(() => undefined);
    expect(rows).toEqual([{ v: 9 }]);
    expect(await ds.query(read, ['a'])).toEqual([{ v: 9 }]);
  });
});
