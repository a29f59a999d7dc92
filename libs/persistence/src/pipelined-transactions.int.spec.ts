import type { Socket } from 'node:net';
import type { PoolClient } from 'pg';
import { QueryFailedError, type DataSource, type EntityManager } from 'typeorm';
import { dropDatabase, openDatabase } from './data-source';
import { ownTestDatabaseUrl } from './own-test-database';
import { sendAhead } from './pipelined-transactions';
import { recordStatements } from './statement-recorder';
import { deferWrite, sendAheadAfterWrites, sendAheadOfNext } from './write-behind';

const url = ownTestDatabaseUrl('pipelined');
let ds: DataSource;

beforeAll(async () => {
  ds = await openDatabase({ url, schema: 'pipelined', poolSize: 4 });
  await ds.query(`CREATE TABLE t (k text PRIMARY KEY, v int NOT NULL CHECK (v >= 0))`);
});
afterEach(() => jest.restoreAllMocks());
afterAll(async () => {
  await ds.destroy();
  await dropDatabase(url);
});

/** A pooled connection of the data source, its socket, and how many times the socket wrote. */
async function pooled(): Promise<{ client: PoolClient; socket: Socket; writes: () => number }> {
  const pool = (ds.driver as unknown as { master: { connect(): Promise<PoolClient> } }).master;
  const client = await pool.connect();
  const socket = (client as unknown as { connection: { stream: Socket } }).connection.stream;
  return { client, socket, writes: countWrites(socket) };
}

/** How many times `socket` has written since this was called. */
function countWrites(socket: Socket): () => number {
  const spied = socket as unknown as { _write: () => void; _writev: () => void };
  const write = jest.spyOn(spied, '_write');
  const writev = jest.spyOn(spied, '_writev');
  return () => write.mock.calls.length + writev.mock.calls.length;
}

const rows = async (k: string) => ds.query(`SELECT k, v FROM t WHERE k = $1`, [k]);

describe('START TRANSACTION rides with the first statement (pipelineTransactions)', () => {
  it('answers START TRANSACTION without writing, then sends both in one write', async () => {
    const { client, socket, writes } = await pooled();
    try {
      const before = socket.bytesWritten;
      await client.query('START TRANSACTION');
      expect(socket.bytesWritten).toBe(before);
      expect(writes()).toBe(0);
      await client.query(`INSERT INTO t (k, v) VALUES ($1, $2)`, ['one-write', 1]);
      expect(writes()).toBe(1);
      // BEGIN went first: the insert is inside a transaction, which a rollback undoes
      await client.query('ROLLBACK');
    } finally {
      client.release();
    }
    expect(await rows('one-write')).toEqual([]);
  });

  it('commits through TypeORM as before, and rolls back a failed transaction whole', async () => {
    await ds.transaction(async (m) => {
      await m.query(`INSERT INTO t (k, v) VALUES ($1, $2)`, ['kept', 1]);
      await m.query(`UPDATE t SET v = v + 1 WHERE k = $1`, ['kept']);
    });
    expect(await rows('kept')).toEqual([{ k: 'kept', v: 2 }]);
    await expect(
      ds.transaction(async (m) => {
        await m.query(`INSERT INTO t (k, v) VALUES ($1, $2)`, ['lost', 1]);
        await m.query(`INSERT INTO t (k, v) VALUES ($1, $2)`, ['lost-too', -1]);
      }),
    ).rejects.toThrow(/check constraint/);
    expect([...(await rows('lost')), ...(await rows('lost-too'))]).toEqual([]);
    // the first statement failing: the transaction is aborted and rolls back, the connection serves on
    await expect(
      ds.transaction(async (m) => m.query(`INSERT INTO t (k, v) VALUES ($1, $2)`, ['first', -1])),
    ).rejects.toThrow(/check constraint/);
    expect(await ds.query(`SELECT 1 AS ok`)).toEqual([{ ok: 1 }]);
  });

  it('sends nothing for a transaction with no statement in it', async () => {
    const { client, socket, writes } = await pooled();
    try {
      const before = socket.bytesWritten;
      await client.query('START TRANSACTION');
      await client.query('COMMIT');
      await client.query('BEGIN');
      await client.query('ROLLBACK');
      expect(socket.bytesWritten).toBe(before);
      expect(writes()).toBe(0);
      // and the connection is not left in a transaction
      expect(await client.query(`SELECT 1 AS ok`)).toMatchObject({ rows: [{ ok: 1 }] });
      expect((await client.query(`SELECT now() = statement_timestamp() AS outside`)).rows).toEqual([
        { outside: true },
      ]);
    } finally {
      client.release();
    }
  });

  it("fails the first statement with BEGIN's error when BEGIN fails", async () => {
    const { client } = await pooled();
    try {
      await client.query('START TRANSACTION ISOLATION LEVEL NONSENSE');
      await expect(client.query(`SELECT 1 AS ok`)).rejects.toThrow(/syntax error/);
      expect((await client.query(`SELECT 2 AS ok`)).rows).toEqual([{ ok: 2 }]);
    } finally {
      client.release();
    }
  });

  it("gives a callback BEGIN's error, or the statement's result", async () => {
    const { client } = await pooled();
    const viaCallback = (text: string) =>
      new Promise<{ error: Error | null; rows?: unknown[] }>((resolve) => {
        client.query(text, [], (error: Error | null, result?: { rows: unknown[] }) =>
          resolve({ error, rows: result?.rows }),
        );
      });
    try {
      await client.query('START TRANSACTION ISOLATION LEVEL NONSENSE');
      expect((await viaCallback(`SELECT 1 AS ok`)).error?.message).toMatch(/syntax error/);
      await client.query('START TRANSACTION');
      expect(await viaCallback(`SELECT 3 AS ok`)).toEqual({ error: null, rows: [{ ok: 3 }] });
      await client.query('COMMIT');
    } finally {
      client.release();
    }
  });
});

describe('a statement sent ahead of the COMMIT behind it (sendAhead, sendAheadAfterWrites)', () => {
  const insert = `INSERT INTO t (k, v) VALUES ($1, $2) RETURNING k, v`;

  it('writes the statement and the COMMIT together, and gives its rows', async () => {
    const { client, writes } = await pooled();
    try {
      await client.query('START TRANSACTION');
      await client.query(`SELECT 1`);
      const before = writes();
      const reply = sendAhead(client, insert, ['ahead', 1])!;
      expect(writes()).toBe(before); // held until the next statement, the COMMIT
      await client.query('COMMIT');
      expect(writes()).toBe(before + 1);
      expect((await reply).rows).toEqual([{ k: 'ahead', v: 1 }]);
    } finally {
      client.release();
    }
    expect(await rows('ahead')).toEqual([{ k: 'ahead', v: 1 }]);
  });

  it('fails the COMMIT with its error when it fails, and keeps nothing', async () => {
    const { client } = await pooled();
    try {
      await client.query('START TRANSACTION');
      await client.query(`INSERT INTO t (k, v) VALUES ($1, $2)`, ['before-ahead', 1]);
      const reply = sendAhead(client, insert, ['bad-ahead', -1])!;
      reply.catch(() => undefined);
      // a statement behind it fails with its error, not "current transaction is aborted"
      await expect(client.query(`SELECT $1::int AS n`, [1])).rejects.toThrow(/check constraint/);
      await expect(client.query('COMMIT')).rejects.toThrow(/check constraint/);
      await expect(reply).rejects.toThrow(/check constraint/);
      // the caller's ROLLBACK has nothing to end, and the connection serves on outside a transaction
      await client.query('ROLLBACK');
      expect((await client.query(`SELECT now() = statement_timestamp() AS outside`)).rows).toEqual([
        { outside: true },
      ]);
    } finally {
      client.release();
    }
    expect([...(await rows('before-ahead')), ...(await rows('bad-ahead'))]).toEqual([]);
  });

  it('fails a COMMIT that PostgreSQL turned into a ROLLBACK (an error caught inside the transaction)', async () => {
    await expect(
      ds.transaction(async (m) => {
        await m.query(`INSERT INTO t (k, v) VALUES ($1, $2)`, ['caught', 1]);
        await m.query(`INSERT INTO t (k, v) VALUES ($1, $2)`, ['caught-bad', -1]).catch(() => undefined);
      }),
    ).rejects.toThrow(/check constraint/);
    expect(await rows('caught')).toEqual([]);
  });

  it('takes the deferred writes along, tells the subscribers, and commits through TypeORM', async () => {
    const { value: reply, sent } = await recordStatements(ds, () =>
      ds.transaction(async (m) => {
        await deferWrite(m, `INSERT INTO t (k, v) VALUES ($1, $2)`, ['deferred', 1]);
        const { reply } = await sendAheadAfterWrites<{ k: string }[]>(m, `SELECT $1::text AS k`, ['last']);
        return reply;
      }),
    );
    expect(await reply).toEqual([{ k: 'last' }]);
    expect(sent.filter((s) => /deferred|\$1::text AS k/.test(s) || s.includes('openq_w0'))).toHaveLength(1);
    expect(sent.find((s) => s.includes('openq_w0'))).toMatch(/INSERT INTO t .* SELECT \$3::text AS k/s);
    expect(await rows('deferred')).toEqual([{ k: 'deferred', v: 1 }]);
  });

  it('is the usual awaited statement outside a transaction', async () => {
    const { reply } = await sendAheadAfterWrites<{ n: number }[]>(ds.manager, `SELECT $1::int AS n`, [7]);
    expect(await reply).toEqual([{ n: 7 }]);
  });
});

describe('a lock sent ahead of the statement behind it (sendAheadOfNext)', () => {
  const lock = `SELECT pg_advisory_xact_lock(hashtext($1))`;

  it('lets the read behind it wait for the lock and see what its holder committed', async () => {
    await ds.query(`INSERT INTO t (k, v) VALUES ($1, $2)`, ['locked', 1]);
    const holder = ds.createQueryRunner();
    await holder.connect();
    await holder.startTransaction();
    await holder.query(lock, ['locked']);
    await holder.query(`UPDATE t SET v = 2 WHERE k = $1`, ['locked']);
    const read = ds.transaction(async (m) => {
      await sendAheadOfNext(m, lock, ['locked']);
      return m.query(`SELECT v FROM t WHERE k = $1`, ['locked']);
    });
    // the reader is blocked on the lock, its read queued behind it on the same connection
    await waitForLockWaiter();
    await holder.commitTransaction();
    await holder.release();
    expect(await read).toEqual([{ v: 2 }]);
  });

  it('fails the statement behind it with its error', async () => {
    await expect(
      ds.transaction(async (m) => {
        await sendAheadOfNext(m, `SELECT pg_advisory_xact_lock($1::int / 0)`, [1]);
        return m.query(`SELECT 1 AS ok`);
      }),
    ).rejects.toThrow(/division by zero/);
    // and the COMMIT, when nothing stands behind it
    await expect(
      ds.transaction(async (m) => sendAheadOfNext(m, `SELECT pg_advisory_xact_lock($1::int / 0)`, [1])),
    ).rejects.toThrow(/division by zero/);
  });

  it('sends the deferred writes ahead of it, and the read behind sees them', async () => {
    const seen = await ds.transaction(async (m) => {
      await deferWrite(m, `INSERT INTO t (k, v) VALUES ($1, $2)`, ['before-lock', 3]);
      await sendAheadOfNext(m, lock, ['before-lock']);
      return m.query(`SELECT v FROM t WHERE k = $1`, ['before-lock']);
    });
    expect(seen).toEqual([{ v: 3 }]);
  });
});

describe('deferred writes go ahead of the statement that flushes them (deferWrite)', () => {
  const insert = `INSERT INTO t (k, v) VALUES ($1, $2)`;

  /** Counts the writes of the transaction's own socket from the moment it is called. */
  function writesOf(m: EntityManager): () => number {
    const runner = m.queryRunner as unknown as { databaseConnection: { connection: { stream: Socket } } };
    return countWrites(runner.databaseConnection.connection.stream);
  }

  it('sends the queue and the read behind it in one write, and the read sees the queue', async () => {
    const seen = await ds.transaction(async (m) => {
      await m.query(`SELECT 1`); // the START and a first statement, before counting
      const writes = writesOf(m);
      await deferWrite(m, insert, ['flushed-by-read', 4]);
      const rows = await m.query(`SELECT v FROM t WHERE k = $1`, ['flushed-by-read']);
      expect(writes()).toBe(1);
      return rows;
    });
    expect(seen).toEqual([{ v: 4 }]);
  });

  it('sends the queue and the COMMIT in one write', async () => {
    let writes = () => 0;
    await ds.transaction(async (m) => {
      await m.query(`SELECT 1`);
      writes = writesOf(m);
      await deferWrite(m, insert, ['flushed-by-commit', 5]);
    });
    expect(writes()).toBe(1);
    expect(await rows('flushed-by-commit')).toEqual([{ k: 'flushed-by-commit', v: 5 }]);
  });

  it('fails the read behind a failed queue with the write’s error, and the COMMIT too', async () => {
    const failed = ds.transaction(async (m) => {
      await m.query(insert, ['kept-not', 1]);
      await deferWrite(m, insert, ['refused', -1]); // the CHECK refuses it when it is sent
      return m.query(`SELECT v FROM t WHERE k = $1`, ['refused']);
    });
    await expect(failed).rejects.toThrow(QueryFailedError);
    await expect(failed).rejects.toMatchObject({ driverError: { code: '23514' } });
    await expect(
      ds.transaction(async (m) => {
        await m.query(`SELECT 1`);
        await deferWrite(m, insert, ['refused-at-commit', -1]);
      }),
    ).rejects.toThrow(/check constraint/);
    expect([
      ...(await rows('kept-not')),
      ...(await rows('refused')),
      ...(await rows('refused-at-commit')),
    ]).toEqual([]);
  });
});

/** Until a backend of this database waits on an advisory lock. */
async function waitForLockWaiter(): Promise<void> {
  for (;;) {
    const [row] = (await ds.query(
      `SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted`,
    )) as { n: number }[];
    if (row!.n > 0) return;
    await new Promise((resolve) => setImmediate(resolve));
  }
}
