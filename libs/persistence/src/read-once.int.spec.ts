import type { DataSource } from 'typeorm';
import { dropDatabase, openDatabase } from './data-source';
import { ownTestDatabaseUrl } from './own-test-database';
import { StatementRecorder } from './statement-recorder';
import { readOncePerTransaction } from './read-once';

const url = ownTestDatabaseUrl('ro');
let ds: DataSource;

const statements = new StatementRecorder();

beforeAll(async () => {
  ds = await openDatabase({ url, schema: 'ro', poolSize: 4 });
  await ds.query(`CREATE TABLE t (k text PRIMARY KEY, v int NOT NULL)`);
  await ds.query(`INSERT INTO t VALUES ('a', 1), ('b', 2)`);
  ds.subscribers.push(statements);
});
afterAll(async () => {
  await ds.destroy();
  await dropDatabase(url);
});
beforeEach(() => {
  statements.sent = [];
});

const reads = () => statements.sent.filter((s) => s.startsWith('SELECT v FROM t'));
const read = (m: DataSource['manager'], k: string) =>
  readOncePerTransaction(
    m,
    k,
    async () => ((await m.query(`SELECT v FROM t WHERE k = $1`, [k])) as { v: number }[])[0]!.v,
  );

describe('readOncePerTransaction', () => {
  it('reads a key once per transaction, concurrent callers included, and again in the next one', async () => {
    const first = await ds.transaction(async (m) => [
      ...(await Promise.all([read(m, 'a'), read(m, 'a')])),
      await read(m, 'a'),
      await read(m, 'b'),
    ]);
    expect(first).toEqual([1, 1, 1, 2]);
    expect(reads()).toHaveLength(2);
    await ds.query(`UPDATE t SET v = 10 WHERE k = 'a'`);
    expect(await ds.transaction((m) => read(m, 'a'))).toBe(10);
    expect(reads()).toHaveLength(3);
  });

  it('reads every time outside a transaction, and does not keep a failed read', async () => {
    await read(ds.manager, 'a');
    await read(ds.manager, 'a');
    expect(reads()).toHaveLength(2);
    const seen = await ds.transaction(async (m) => {
      let calls = 0;
      const flaky = () =>
        readOncePerTransaction(m, 'flaky', async () => {
          if (++calls === 1) throw new Error('once');
          return calls;
        });
      await expect(flaky()).rejects.toThrow('once');
      return [await flaky(), await flaky(), calls];
    });
    expect(seen).toEqual([2, 2, 2]);
  });
});
