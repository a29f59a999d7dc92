import type { DataSource } from 'typeorm';
import { dropDatabase, openDatabase } from './data-source';
import { ownTestDatabaseUrl } from './own-test-database';
import { StatementRecorder } from './statement-recorder';
import { deferRows, deferWrite, queryAfterWrites } from './write-behind';

const url = ownTestDatabaseUrl('wb');
let ds: DataSource;

const statements = new StatementRecorder();

beforeAll(async () => {
  ds = await openDatabase({ url, schema: 'wb', poolSize: 4 });
  await ds.query(`CREATE TABLE t (k text PRIMARY KEY, v int NOT NULL CHECK (v >= 0))`);
  await ds.query(`CREATE TABLE log (n serial PRIMARY KEY, k text NOT NULL)`);
  ds.subscribers.push(statements);
});
afterAll(async () => {
  await ds.destroy();
  await dropDatabase(url);
});
beforeEach(async () => {
  await ds.query(`TRUNCATE t, log`);
  statements.sent = [];
});

const upsert = `INSERT INTO t (k, v) VALUES ($1, $2) ON CONFLICT (k) DO UPDATE SET v = EXCLUDED.v`;
const append = `INSERT INTO log (k) VALUES ($1)`;
const rowsOf = async () =>
  ((await ds.query(`SELECT k, v FROM t ORDER BY k`)) as { k: string; v: number }[]).map(
    (r) => `${r.k}=${r.v}`,
  );

describe('write-behind (deferWrite, queryAfterWrites)', () => {
  it('sends the queued writes with the next statement, which reads them', async () => {
    const seen = await ds.transaction(async (m) => {
      await deferWrite(m, upsert, ['a', 1]);
      await deferWrite(m, append, ['a']);
      expect(statements.sent.filter((s) => s.includes('INSERT'))).toEqual([]);
      return m.query(`SELECT (SELECT count(*)::int FROM t) AS t, (SELECT count(*)::int FROM log) AS log`);
    });
    expect(seen).toEqual([{ t: 1, log: 1 }]);
    // one statement for both writes, before the read
    const writes = statements.sent.filter((s) => s.includes('INSERT'));
    expect(writes).toHaveLength(1);
    expect(writes[0]).toMatch(/^WITH openq_w0 AS \(INSERT INTO t .*\), openq_w1 AS \(INSERT INTO log/s);
  });

  it('folds the queue into queryAfterWrites, renumbering parameters, and the COMMIT sends what is left', async () => {
    const returned = await ds.transaction(async (m) => {
      await deferWrite(m, upsert, ['a', 1]);
      await deferWrite(m, upsert, ['b', 2]);
      const rows: { k: string }[] = await queryAfterWrites(
        m,
        `WITH x AS (INSERT INTO log (k) VALUES ($1) RETURNING k) SELECT k FROM x`,
        ['z'],
      );
      await deferWrite(m, upsert, ['c', 3]);
      return rows;
    });
    expect(returned).toEqual([{ k: 'z' }]);
    expect(await rowsOf()).toEqual(['a=1', 'b=2', 'c=3']);
    const sent = statements.sent.filter((s) => s.includes('INSERT'));
    expect(sent).toHaveLength(2); // the folded one, then the last write alone before COMMIT
    expect(sent[0]).toMatch(
      /openq_w1 AS \(INSERT INTO t \(k, v\) VALUES \(\$3, \$4\).*, x AS \(INSERT INTO log \(k\) VALUES \(\$5\)/s,
    );
    expect(sent[1]).toBe(upsert);
    expect(statements.sent.indexOf(upsert)).toBeLessThan(statements.sent.indexOf('COMMIT'));
  });

  it('sends a write of a row already queued after the queue, so the later value wins', async () => {
    await ds.transaction(async (m) => {
      await deferWrite(m, upsert, ['a', 1], 'a');
      await deferWrite(m, upsert, ['b', 1], 'b');
      await deferWrite(m, upsert, ['a', 2], 'a');
    });
    expect(await rowsOf()).toEqual(['a=2', 'b=1']);
  });

  it('drops the queue on ROLLBACK, and on ROLLBACK TO SAVEPOINT only what came after the savepoint', async () => {
    await expect(
      ds.transaction(async (m) => {
        await deferWrite(m, upsert, ['gone', 1]);
        throw new Error('abandoned');
      }),
    ).rejects.toThrow('abandoned');
    await ds.transaction(async (m) => {
      await deferWrite(m, upsert, ['kept', 1]);
      await m
        .transaction(async (inner) => {
          await deferWrite(inner, upsert, ['undone', 1]);
          throw new Error('inner');
        })
        .catch(() => undefined);
      await deferWrite(m, upsert, ['after', 1]);
    });
    expect(await rowsOf()).toEqual(['after=1', 'kept=1']);
    expect(statements.sent.some((s) => s.includes(`'gone'`))).toBe(false);
  });

  it('fails the transaction when a queued write fails, and keeps nothing of it', async () => {
    await expect(
      ds.transaction(async (m) => {
        await m.query(upsert, ['before', 1]);
        await deferWrite(m, append, ['x']);
        await deferWrite(m, upsert, ['bad', -1]); // the CHECK refuses it when it is sent
      }),
    ).rejects.toThrow(/check constraint/);
    expect(await rowsOf()).toEqual([]);
    expect(await ds.query(`SELECT count(*)::int AS n FROM log`)).toEqual([{ n: 0 }]);
  });

  it('runs a write at once outside a transaction', async () => {
    await deferWrite(ds.manager, upsert, ['now', 7]);
    expect(await rowsOf()).toEqual(['now=7']);
  });

  it('keeps each of many concurrent transactions to its own queue', async () => {
    await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        ds.transaction(async (m) => {
          await deferWrite(m, upsert, [`k${i}`, i]);
          await new Promise((r) => setImmediate(r));
          await deferWrite(m, append, [`k${i}`]);
          await queryAfterWrites(m, `SELECT 1`, []);
        }),
      ),
    );
    expect(await rowsOf()).toHaveLength(40);
    expect(await ds.query(`SELECT count(*)::int AS n FROM log`)).toEqual([{ n: 40 }]);
  });

  describe('deferRows', () => {
    const rows = `INSERT INTO t (k, v) SELECT * FROM unnest($1::text[], $2::int[]) ON CONFLICT (k) DO NOTHING`;

    it('sends the rows of one statement given by several calls as one write, then starts anew', async () => {
      await ds.transaction(async (m) => {
        await deferRows(m, rows, ['a', 1]);
        await deferWrite(m, append, ['a']);
        await deferRows(m, rows, ['b', 2]);
        await deferRows(m, rows, ['b', 3]); // the same key twice in one statement: DO NOTHING keeps one
        await m.query(`SELECT 1`);
        await deferRows(m, rows, ['c', 4]);
      });
      expect(await rowsOf()).toEqual(['a=1', 'b=2', 'c=4']);
      const writes = statements.sent.filter((s) => s.includes('INSERT'));
      expect(writes).toHaveLength(2);
      expect(writes[0]).toMatch(
        /^WITH openq_w0 AS \(INSERT INTO t .*unnest.*\), openq_w1 AS \(INSERT INTO log/s,
      );
      expect(writes[1]).toBe(rows);
    });

    it('runs a row at once outside a transaction', async () => {
      await deferRows(ds.manager, rows, ['now', 7]);
      expect(await rowsOf()).toEqual(['now=7']);
    });
  });
});
