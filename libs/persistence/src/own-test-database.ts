import { randomBytes } from 'node:crypto';
import { withDatabase } from './database-url';

/**
 * For this library's own integration tests: the URL of a database of the test's own, named
 * `openq_test_<label>_<random>` (libs/testing depends on this library, so it is not used here).
 * Not exported from the library.
 */
export function ownTestDatabaseUrl(label: string): string {
  const base =
    process.env.OPENQ_TEST_DATABASE_URL ??
    process.env.DATABASE_URL ??
    'postgres://postgres@127.0.0.1:5432/postgres';
  return withDatabase(base, `openq_test_${label}_${randomBytes(6).toString('hex')}`);
}
