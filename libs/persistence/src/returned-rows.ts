/**
 * The rows an `UPDATE … RETURNING` or `DELETE … RETURNING` gave back through TypeORM's
 * `query()`. Its PostgreSQL driver returns `[rows, rowCount]` for those two commands (and the
 * rows themselves for every other): reading `.length` of the raw result would always say 2.
 */
export function returnedRows<T>(result: unknown): T[] {
  if (
    Array.isArray(result) &&
    result.length === 2 &&
    Array.isArray(result[0]) &&
    typeof result[1] === 'number'
  )
    return result[0] as T[];
  return result as T[];
}
