import type { Socket } from 'node:net';
import type { PoolClient } from 'pg';
import type { DataSource } from 'typeorm';
import { dropDatabase, openDatabase } from './data-source';
import { ownTestDatabaseUrl } from './own-test-database';

const url = ownTestDatabaseUrl('bwfs');
let ds: DataSource;

beforeAll(async () => {
  ds = await openDatabase({ url, schema: 'bwfs', poolSize: 2 });
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
  const write = jest.spyOn(socket as unknown as { _write: () => void }, '_write');
  const writev = jest.spyOn(socket as unknown as { _writev: () => void }, '_writev');
  return { client, socket, writes: () => write.mock.calls.length + writev.mock.calls.length };
}

const rows = async (k: string) => ds.query(`SELECT k, v FROM t WHERE k = $1`, [k]);

describe('START TRANSACTION rides with the first statement (beginWithFirstStatement)', () => {
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
