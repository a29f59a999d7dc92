import { randomBytes } from 'node:crypto';
import { dropDatabase, ensureDatabase, withDatabase } from '@openq/persistence';

export const TEST_DATABASE_BASE_URL =
  process.env.OPENQ_TEST_DATABASE_URL ??
  process.env.DATABASE_URL ??
  'postgres://postgres@127.0.0.1:5432/postgres';

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

/**
 * A database of the test run's own on the real PostgreSQL, dropped at the end. Inside jest its name
 * carries the suite's tag (OPENQ_TEST_SUITE, test/jest/environment.js), so a database the suite
 * forgets to drop is found and named after the suite.
 */
export async function createTestDatabase(prefix = 'openq_test'): Promise<TestDatabase> {
  const suite = process.env.OPENQ_TEST_SUITE;
  const name = `${prefix}_${suite ? `${suite}_` : ''}${randomBytes(6).toString('hex')}`;
  const url = withDatabase(TEST_DATABASE_BASE_URL, name);
  await ensureDatabase(url);
  return { url, drop: () => dropDatabase(url) };
}
