import { Client } from 'pg';
import type { DataSource } from 'typeorm';
import { dropDatabase, openDatabase } from './data-source';
import { ownTestDatabaseUrl } from './own-test-database';
import { isTransientDbError } from './db-errors';

const url = ownTestDatabaseUrl('drops');
let ds: DataSource;
let killer: Client;

beforeAll(async () => {
  ds = await openDatabase({ url, schema: 'drops', poolSize: 5 });
  killer = new Client({ connectionString: url });
  await killer.connect();
});
afterAll(async () => {
  await killer.end();
  await ds.destroy();
  await dropDatabase(url);
});

describe('a data source whose connections the server keeps terminating', () => {
  it('fails the transactions it cuts with transient errors and never crashes the process', async () => {
    const uncaught: unknown[] = [];
    const onUncaught = (error: unknown) => uncaught.push(error);
    process.on('uncaughtException', onUncaught);
    let stop = false;
    let terminated = 0;
    const storm = (async () => {
      while (!stop) {
        const { rows } = await killer.query<{ n: string }>(
          `SELECT count(pg_terminate_backend(pid)) AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`,
        );
        terminated += Number(rows[0]?.n ?? 0);
      }
    })();
    const outcomes = { ok: 0, transient: 0, other: [] as unknown[] };
    const worker = async () => {
      for (let i = 0; i < 40; i++) {
        try {
          await ds.transaction(async (m) => {
            await m.query('SELECT 1');
            await new Promise((r) => setImmediate(r));
            await m.query('SELECT 2');
          });
          outcomes.ok++;
        } catch (error) {
          if (isTransientDbError(error)) outcomes.transient++;
          else outcomes.other.push(error);
        }
      }
    };
    try {
      await Promise.all(Array.from({ length: 8 }, worker));
    } finally {
      stop = true;
      await storm;
      process.off('uncaughtException', onUncaught);
    }
    expect(terminated).toBeGreaterThan(0);
    expect(outcomes.transient).toBeGreaterThan(0);
    expect(outcomes.other.map(String).slice(0, 3)).toEqual([]);
    expect(uncaught.map(String).slice(0, 3)).toEqual([]);
    // And the pool recovers once the storm is over. An idle connection the last round of the storm
    // terminated may still be in the pool until its client reads the server's notice: the first
    // query after the storm may fail on it (a transient error, like any cut), and a next one works.
    const after: unknown[] = [];
    let recovered: unknown = null;
    // One attempt per pooled connection (5), plus the one that must work.
    for (let attempt = 0; attempt < 6 && recovered === null; attempt++) {
      try {
        recovered = await ds.query('SELECT 1 AS one');
      } catch (error) {
        after.push(error);
      }
    }
    expect(recovered).toEqual([{ one: 1 }]);
    expect(after.filter((error) => !isTransientDbError(error)).map(String)).toEqual([]);
  });
});
