/** What a pg client or a TypeORM data source both offer. */
interface Queryable {
  query(sql: string, params?: unknown[]): Promise<unknown>;
}

async function rows<T>(db: Queryable, sql: string, params: unknown[]): Promise<T[]> {
  const out = (await db.query(sql, params)) as T[] | { rows: T[] };
  return Array.isArray(out) ? out : out.rows;
}

/**
 * Runs a bulk load with the table's secondary indexes dropped, then recreates each from its own
 * definition (`pg_get_indexdef`), so the table ends with exactly the indexes the migrations made
 * — built once over the data instead of maintained row by row. Constraint indexes (primary keys,
 * unique constraints) stay. Only ever used on the bench's throwaway databases.
 */
export async function withIndexesRebuilt<T>(
  db: Queryable,
  table: string,
  load: () => Promise<T>,
): Promise<T> {
  const indexes = await rows<{ name: string; def: string }>(
    db,
    `SELECT i.relname AS name, pg_get_indexdef(i.oid) AS def
       FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid
      WHERE x.indrelid = $1::regclass
        AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.oid)`,
    [table],
  );
  const schema = table.includes('.') ? `${table.split('.')[0]}.` : '';
  for (const index of indexes) await db.query(`DROP INDEX ${schema}${index.name}`);
  try {
    return await load();
  } finally {
    for (const index of indexes) await db.query(index.def);
  }
}
