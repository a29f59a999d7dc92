import type { Socket } from 'node:net';
import { Client } from 'pg';
import type { DataSource } from 'typeorm';
import { beginWithFirstStatement, forgetHeldBegin } from './begin-with-first-statement';
import { dropDatabase, openDatabase } from './data-source';
import { ownTestDatabaseUrl } from './own-test-database';

const url = ownTestDatabaseUrl('bwfs');
let ds: DataSource;

/** What the pool's connections put on the wire, in order: a text when sent, `<text> done` when answered. */
const wire: string[] = [];
const original = Client.prototype.query;

beforeAll(async () => {
  // Under every wrapper `openDatabase` installs: the statements as pg sends them.
  Client.prototype.query = function (this: Client, ...args: unknown[]) {
    const first = args[0];
    const text = typeof first === 'string' ? first : (first as { text?: string }).text;
    wire.push(String(text));
    const out = (original as (...a: unknown[]) => unknown).apply(this, args);
    if (out instanceof Promise) void out.then(() => wire.push(`${text} done`)).catch(() => undefined);
    return out;
  } as typeof original;
  ds = await openDatabase({ url, schema: 'bwfs', poolSize: 1 });
  await ds.query(`CREATE TABLE t (k text PRIMARY KEY, v int NOT NULL CHECK (v >= 0))`);
});
afterAll(async () => {
  Client.prototype.query = original;
  await ds.destroy();
  await dropDatabase(url);
});
beforeEach(() => {
  wire.length = 0;
});

describe('a transaction’s BEGIN goes with its first statement (beginWithFirstStatement)', () => {
  it('writes the first statement before the BEGIN is answered, and the transaction holds', async () => {
    await ds.query(`SELECT 1`); // the pool's one connection is open
    const stream = (ds.driver as unknown as { master: { _clients: { connection: { stream: Socket } }[] } })
      .master._clients[0]!.connection.stream;
    // The socket's traffic as it leaves: one entry per write to the socket (its messages' types:
    // `Q` a simple query — the BEGIN —, `P`/`B` a statement's Parse or Bind), `<` an answer.
    const traffic: string[] = [];
    type Chunks = { chunk: Buffer }[];
    const socket = stream as unknown as {
      _write: (chunk: Buffer, ...rest: unknown[]) => void;
      _writev: (chunks: Chunks, ...rest: unknown[]) => void;
    };
    const { _write, _writev } = socket;
    socket._write = function (chunk: Buffer, ...rest: unknown[]) {
      traffic.push(`>${String.fromCharCode(chunk[0]!)}`);
      return _write.call(this, chunk, ...rest);
    };
    socket._writev = function (chunks: Chunks, ...rest: unknown[]) {
      traffic.push(`>${chunks.map((c) => String.fromCharCode(c.chunk[0]!)).join('')}`);
      return _writev.call(this, chunks, ...rest);
    };
    const onData = () => traffic.push('<');
    stream.prependListener('data', onData);
    try {
      const rows = await ds.transaction(async (m) => {
        await m.query(`INSERT INTO t (k, v) VALUES ($1, $2)`, ['a', 1]);
        return m.query(`SELECT v FROM t WHERE k = $1`, ['a']);
      });
      expect(rows).toEqual([{ v: 1 }]);
    } finally {
      socket._write = _write;
      socket._writev = _writev;
      stream.off('data', onData);
    }
    // One write for both, before any answer came back: the BEGIN's Query, then the statement.
    expect(traffic[0]).toMatch(/^>Q[PB]/);
    expect(traffic[1]).toBe('<');
    expect(wire.filter((t) => t === 'START TRANSACTION')).toHaveLength(1);
    expect(wire.filter((t) => t === 'COMMIT')).toHaveLength(1);
  });

  it('rolls the whole transaction back when a statement fails, and the connection goes on', async () => {
    await expect(
      ds.transaction(async (m) => {
        await m.query(`INSERT INTO t (k, v) VALUES ($1, $2)`, ['b', 2]);
        await m.query(`INSERT INTO t (k, v) VALUES ($1, $2)`, ['c', -1]); // the CHECK fails
      }),
    ).rejects.toThrow(/check constraint/);
    expect(await ds.query(`SELECT k FROM t WHERE k IN ('b', 'c')`)).toEqual([]);
    await expect(
      ds.transaction((m) => m.query(`INSERT INTO t (k, v) VALUES ($1, $2)`, ['a', 5])),
    ).rejects.toThrow(/duplicate key/); // the first statement itself fails
    await ds.transaction((m) => m.query(`INSERT INTO t (k, v) VALUES ($1, $2)`, ['d', 4]));
    expect(await ds.query(`SELECT k FROM t ORDER BY k`)).toEqual([{ k: 'a' }, { k: 'd' }]);
  });

  it('sends nothing for a transaction that sends nothing', async () => {
    await ds.transaction(async () => undefined);
    await expect(
      ds.transaction(async () => {
        throw new Error('before any statement');
      }),
    ).rejects.toThrow('before any statement');
    expect(wire).toEqual([]);
    expect(await ds.query(`SELECT 1 AS one`)).toEqual([{ one: 1 }]);
    expect(wire).toEqual(['SELECT 1 AS one', 'SELECT 1 AS one done']);
  });

  it('is isolated like any transaction: another connection does not see its writes before COMMIT', async () => {
    const other = new Client({ connectionString: url, options: '-c search_path=bwfs' });
    await other.connect();
    try {
      await ds.transaction(async (m) => {
        await m.query(`INSERT INTO t (k, v) VALUES ($1, $2)`, ['e', 5]);
        const seen = await other.query(`SELECT k FROM t WHERE k = 'e'`);
        expect(seen.rows).toEqual([]);
      });
      expect((await other.query(`SELECT k FROM t WHERE k = 'e'`)).rows).toEqual([{ k: 'e' }]);
    } finally {
      await other.end();
    }
  });

  it('forgets a held BEGIN when the connection goes back to the pool', async () => {
    const client = new Client({
      connectionString: url,
      options: '-c search_path=bwfs',
      pipeline: true,
    } as never);
    await client.connect();
    try {
      beginWithFirstStatement(client);
      await client.query('START TRANSACTION');
      forgetHeldBegin(client);
      await client.query(`INSERT INTO t (k, v) VALUES ($1, $2)`, ['f', 6]);
      expect(client.getTransactionStatus()).toBe('I'); // idle: no transaction was opened
      await client.query('START TRANSACTION');
      await client.query(`INSERT INTO t (k, v) VALUES ($1, $2)`, ['g', 7]);
      expect(client.getTransactionStatus()).toBe('T');
      await client.query('ROLLBACK');
      expect((await ds.query(`SELECT k FROM t WHERE k IN ('f', 'g') ORDER BY k`)) as unknown[]).toEqual([
        { k: 'f' },
      ]);
    } finally {
      await client.end();
    }
  });
});
