import type { Client } from 'pg';

/**
 * Named prepared statements for the statements a process sends again and again (issue #29).
 *
 * Every query TypeORM sends goes through a pooled pg `Client` as `query(text, values)`: an unnamed
 * statement, which PostgreSQL parses, analyses and plans anew on every execution. Sent as
 * `{ name, text, values }` instead, a statement is parsed once per connection and, once its plan
 * cache settles (PostgreSQL's `plan_cache_mode = auto`: a generic plan when it costs no more than
 * the custom ones), planned once too; later executions are Bind + Execute only. The mechanism sits
 * here, on every connection of the pool (`openDatabase` installs it in `onConnect`), so no call
 * site changes.
 *
 * Which statements: those with parameters (a statement without them, BEGIN or COMMIT, stays on the
 * simple protocol), once their text has been seen `REPEATS` times in this process — one-off texts
 * (migrations, a write-behind CTE of an unusual shape) stay unnamed. Bounded: at most
 * `MAX_TEXTS` texts get a name in the process and at most `MAX_PER_CONNECTION` are prepared on one
 * connection; past either bound a statement is sent unnamed, as before. A name is given to one text
 * for the life of the process (`openq_<n>`), so a connection never sees one name for two texts.
 * Prepared statements live as long as their connection and are not transactional (a ROLLBACK keeps
 * them); a new connection after a drop starts without any. If a table's columns changed under a
 * prepared statement's result (a migration of a running schema), PostgreSQL fails it with
 * `cached plan must not change result type`; openq migrates before it serves, so a process never
 * sees its own schema change.
 */
export function prepareRepeatedStatements(client: Client): void {
  const query = client.query as (...args: unknown[]) => unknown;
  const prepared = new Set<string>();
  (client as unknown as { query: (...args: unknown[]) => unknown }).query = function (
    this: Client,
    ...args: unknown[]
  ) {
    const [text, values, callback] = args;
    if (typeof text === 'string' && Array.isArray(values) && values.length > 0) {
      const name = nameOf(text);
      if (name !== undefined && (prepared.has(name) || prepared.size < MAX_PER_CONNECTION)) {
        prepared.add(name);
        return query.call(this, { name, text, values }, callback);
      }
    }
    return query.apply(this, args);
  };
}

/** Times a text is sent before it is named. */
const REPEATS = 2;
const MAX_TEXTS = 2000;
const MAX_PER_CONNECTION = 256;

const names = new Map<string, string>();
const seen = new Map<string, number>();

function nameOf(text: string): string | undefined {
  const name = names.get(text);
  if (name !== undefined) return name;
  if (names.size >= MAX_TEXTS) return undefined;
  const times = (seen.get(text) ?? 0) + 1;
  if (times < REPEATS) {
    if (seen.size >= MAX_TEXTS) seen.clear();
    seen.set(text, times);
    return undefined;
  }
  seen.delete(text);
  const named = `openq_${names.size + 1}`;
  names.set(text, named);
  return named;
}
