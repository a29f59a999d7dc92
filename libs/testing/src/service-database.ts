import type { DataSource } from 'typeorm';
import { openDatabase, type DatabaseOptions } from '@openq/persistence';
import { createTestDatabase, type TestDatabase } from './database';

export interface ServiceDatabaseOptions {
  /** Name prefix of the throwaway database (default `openq_test`). */
  prefix?: string;
  poolSize?: number;
  /** Entities to register (most specs query with SQL and need none). */
  entities?: DatabaseOptions['entities'];
}

/** What {@link useServiceDatabase} hands a spec: read it inside tests and hooks, once opened. */
export interface ServiceDatabase {
  readonly ds: DataSource;
  readonly db: TestDatabase;
}

/**
 * For an integration spec: a throwaway database with one service's schema and its checked-in
 * migrations (and the messaging tables), opened before the spec's tests and dropped after them.
 * Call it at the top of the spec (it registers the `beforeAll`/`afterAll` hooks).
 */
export function useServiceDatabase(
  schema: string,
  migrations: readonly unknown[],
  options: ServiceDatabaseOptions = {},
): ServiceDatabase {
  let db: TestDatabase | undefined;
  let ds: DataSource | undefined;
  beforeAll(async () => {
    db = await createTestDatabase(options.prefix);
    ds = await openDatabase({
      url: db.url,
      schema,
      migrations: migrations as NonNullable<DatabaseOptions['migrations']>,
      poolSize: options.poolSize,
      entities: options.entities,
    });
  });
  afterAll(async () => {
    await ds?.destroy();
    await db?.drop();
  });
  const opened = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`the ${schema} test database is not open yet (${what})`);
    return value;
  };
  return {
    get ds() {
      return opened(ds, 'ds');
    },
    get db() {
      return opened(db, 'db');
    },
  };
}
