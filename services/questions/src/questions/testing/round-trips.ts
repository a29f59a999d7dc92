import type { DataSource, EntityManager } from 'typeorm';
import { recordStatements } from '@openq/persistence';

/**
 * `work` in a transaction of its own, with what it cost: the statements PostgreSQL ran (START and
 * COMMIT aside) and the ones it waited for (`manager.query`; a statement sent ahead is not waited
 * for, and goes in the same write as the one behind it).
 */
export async function countRoundTrips<T>(
  ds: DataSource,
  work: (manager: EntityManager) => Promise<T>,
): Promise<{ result: T; statements: number; waits: number }> {
  const { value, sent } = await recordStatements(ds, () =>
    ds.transaction(async (m) => {
      let waits = 0;
      const query = m.query.bind(m);
      m.query = ((sql: string, params?: unknown[]) => {
        waits += 1;
        return query(sql, params);
      }) as typeof m.query;
      return { result: await work(m), waits };
    }),
  );
  return { ...value, statements: sent.filter((sql) => !/^(START TRANSACTION|COMMIT)$/.test(sql)).length };
}
