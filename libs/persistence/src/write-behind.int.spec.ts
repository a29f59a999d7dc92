import type { DataSource } from 'typeorm';
import { dropDatabase, openDatabase } from './data-source';
import { ownTestDatabaseUrl } from './own-test-database';
import { StatementRecorder } from './statement-recorder';
import { deferRows, deferWrite, inOneStatement, queryAfterWrites } from './write-behind';

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
    expect(writes[0]).toMatch(/^WITH openq_w1 AS \(INSERT INTO log .*\), openq_w0 AS \(INSERT INTO t /s);
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

  it('runs the queued writes in the order queued: a serial they take follows it', async () => {
    await ds.transaction(async (m) => {
      for (const k of ['w0', 'w1', 'w2', 'w3']) await deferWrite(m, append, [k]);
      await queryAfterWrites(m, `SELECT 1`, []);
      for (const k of ['c0', 'c1', 'c2']) await deferWrite(m, append, [k]); // sent by the COMMIT
    });
    expect(await ds.query(`SELECT string_agg(k, ',' ORDER BY n) AS ks FROM log`)).toEqual([
      { ks: 'w0,w1,w2,w3,c0,c1,c2' },
    ]);
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
        /^WITH openq_w1 AS \(INSERT INTO log .*\), openq_w0 AS \(INSERT INTO t .*unnest/s,
      );
      expect(writes[1]).toBe(rows);
    });

    it('sends the queue first when a row of the same key is still queued (an upsert changes a row once)', async () => {
      const upsertRows = `INSERT INTO t (k, v) SELECT * FROM unnest($1::text[], $2::int[])
        ON CONFLICT (k) DO UPDATE SET v = EXCLUDED.v`;
      await ds.transaction(async (m) => {
        await deferRows(m, upsertRows, ['a', 1], { key: 'a' });
        await deferRows(m, upsertRows, ['b', 2], { key: 'b' });
        await deferRows(m, upsertRows, ['a', 3], { key: 'a' }); // without its key: "cannot affect row a second time"
        await deferWrite(m, upsert, ['a', 4], 'a'); // and a write of a key a queued row has
      });
      expect(await rowsOf()).toEqual(['a=4', 'b=2']);
      const writes = statements.sent.filter((s) => s.includes('INSERT'));
      expect(writes).toHaveLength(3);
      expect(writes[0]).toBe(upsertRows);
    });

    it('keeps rows queued until commit past reads, so rows given between reads make one statement', async () => {
      const seen = await ds.transaction(async (m) => {
        await deferRows(m, rows, ['a', 1], { untilCommit: true });
        await deferWrite(m, append, ['a']);
        const first: { n: number }[] = await m.query(`SELECT count(*)::int AS n FROM t`);
        await deferRows(m, rows, ['b', 2], { untilCommit: true });
        const second: { n: number }[] = await m.query(`SELECT count(*)::int AS n FROM log`);
        await deferRows(m, rows, ['c', 3], { untilCommit: true });
        return [first[0]!.n, second[0]!.n];
      });
      // the reads did not send the rows (nor see them); the append went before the first read
      expect(seen).toEqual([0, 1]);
      expect(await rowsOf()).toEqual(['a=1', 'b=2', 'c=3']);
      const writes = statements.sent.filter((s) => s.includes('INSERT INTO t'));
      expect(writes).toEqual([rows]);
      expect(statements.sent.indexOf(rows)).toBe(statements.sent.indexOf('COMMIT') - 1);
    });

    it('sends rows kept until commit at a savepoint, so a rollback to it drops only what came after', async () => {
      await ds.transaction(async (m) => {
        await deferRows(m, rows, ['before', 1], { untilCommit: true });
        await m.query(`SAVEPOINT s`);
        await deferRows(m, rows, ['after', 2], { untilCommit: true });
        await m.query(`SELECT 1`);
        await m.query(`ROLLBACK TO SAVEPOINT s`);
        await deferRows(m, rows, ['last', 3], { untilCommit: true });
      });
      expect(await rowsOf()).toEqual(['before=1', 'last=3']);
    });

    it('runs a row at once outside a transaction', async () => {
      await deferRows(ds.manager, rows, ['now', 7]);
      expect(await rowsOf()).toEqual(['now=7']);
    });
  });

  describe('inOneStatement', () => {
    /** The final statement: fails on purpose (a division by zero) unless `$1` is true. */
    const check = (ok: boolean) => ({
      sql: `WITH x AS (INSERT INTO log (k) VALUES ('check') RETURNING 1) SELECT 1 / (CASE WHEN $1::boolean AND EXISTS (SELECT 1 FROM x) THEN 1 ELSE 0 END) AS done`,
      params: [ok],
    });

    it('sends the unit’s writes and the final statement as one statement, no START nor COMMIT', async () => {
      const result = await inOneStatement(
        ds,
        async (m) => {
          await deferWrite(m, upsert, ['a', 1]);
          await deferRows(m, `INSERT INTO t (k, v) SELECT * FROM unnest($1::text[], $2::int[])`, ['b', 2]);
          return 'value';
        },
        check(true),
      );
      expect(result).toEqual({ done: true, value: 'value', rows: [{ done: 1 }] });
      expect(statements.sent).toHaveLength(1);
      expect(statements.sent[0]).toMatch(
        /^WITH openq_w1 AS \(INSERT INTO t .*unnest.*\), openq_w0 AS \(INSERT INTO t .*, x AS/s,
      );
      expect(await rowsOf()).toEqual(['a=1', 'b=2']);
      expect(await ds.query(`SELECT k FROM log`)).toEqual([{ k: 'check' }]);
    });

    it('keeps nothing when the final statement fails its check, nor when a write fails', async () => {
      const refused = await inOneStatement(ds, (m) => deferWrite(m, upsert, ['a', 1]), check(false));
      expect(refused).toMatchObject({
        done: false,
        why: 'failed',
        error: expect.objectContaining({ message: 'division by zero' }),
      });
      const broken = await inOneStatement(ds, (m) => deferWrite(m, upsert, ['a', -1]), check(true));
      expect(broken).toMatchObject({ done: false, why: 'failed' });
      expect(await rowsOf()).toEqual([]);
      expect(await ds.query(`SELECT k FROM log`)).toEqual([]);
    });

    it('refuses a statement of the unit’s own, whatever the unit does with the refusal', async () => {
      const reads = await inOneStatement(
        ds,
        async (m) => {
          await deferWrite(m, upsert, ['a', 1]);
          await m.query(`SELECT 1`).catch(() => undefined); // swallowed: still not done
        },
        check(true),
      );
      expect(reads).toEqual({ done: false, why: 'statement' });
      const nested = await inOneStatement(
        ds,
        (m) => m.transaction((inner) => inner.query(`SELECT 1`)),
        check(true),
      );
      expect(nested).toEqual({ done: false, why: 'statement' });
      expect(statements.sent).toEqual([]);
      expect(await rowsOf()).toEqual([]);
      // The connections went back to the pool as they were: a transaction there works as usual.
      await Promise.all(
        Array.from({ length: 8 }, (_, i) => ds.transaction((m) => m.query(upsert, [`k${i}`, i]))),
      );
      expect(await rowsOf()).toHaveLength(8);
    });

    it('ends, to the data source’s subscribers, as a commit when done and as a rollback when not', async () => {
      const ends: string[] = [];
      const watcher = {
        afterTransactionCommit: () => void ends.push('commit'),
        afterTransactionRollback: () => void ends.push('rollback'),
      };
      ds.subscribers.push(watcher);
      try {
        await inOneStatement(ds, (m) => deferWrite(m, upsert, ['a', 1]), check(true));
        await inOneStatement(ds, (m) => m.query(`SELECT 1`), check(true));
        await inOneStatement(ds, (m) => deferWrite(m, upsert, ['b', 1]), check(false));
      } finally {
        ds.subscribers.splice(ds.subscribers.indexOf(watcher), 1);
      }
      expect(ends).toEqual(['commit', 'rollback', 'rollback']);
      expect(await rowsOf()).toEqual(['a=1']);
    });

    it('says failed, keeping nothing, when the unit throws', async () => {
      const failed = await inOneStatement(
        ds,
        async (m) => {
          await deferWrite(m, upsert, ['a', 1]);
          throw new Error('the handler’s own');
        },
        check(true),
      );
      expect(failed).toMatchObject({ done: false, why: 'failed', error: new Error('the handler’s own') });
      expect(statements.sent).toEqual([]);
      expect(await rowsOf()).toEqual([]);
    });
  });
});
