import type { Client } from 'pg';
import type { Writable } from 'node:stream';

/**
 * A transaction's `START TRANSACTION` rides with its first statement (issue #29).
 *
 * TypeORM opens a transaction with `START TRANSACTION` and awaits it before it sends anything else:
 * a round trip to PostgreSQL (a write, a wake-up of the backend, a reply, a wake-up of Node) that
 * carries nothing. Here the pooled connection is in node-postgres' pipeline mode (`pipeline: true`,
 * set by `openDatabase`: a query is written as soon as it is queued, each with its own Sync, and
 * the replies are matched in order), and `START TRANSACTION` is held: it answers at once, and is
 * written together with the transaction's first statement, in one write. PostgreSQL runs them in
 * that order, exactly as before; the first statement's reply comes back after the `BEGIN`'s.
 *
 * - `BEGIN` fails (the connection dropped): the first statement's promise rejects with that error.
 * - The first statement fails: the transaction is aborted, as it was, and the caller rolls back.
 * - `COMMIT` or `ROLLBACK` with nothing in between: neither is sent (there was nothing to end).
 * - A query given a callback instead of awaited: the callback gets `BEGIN`'s error if it failed.
 *
 * What PostgreSQL sees, and the order it sees it in, is unchanged; only the wait between the two
 * is gone.
 */
export function beginWithFirstStatement(client: Client): void {
  const query = client.query as (...args: unknown[]) => unknown;
  let held: string | null = null;
  (client as unknown as { query: (...args: unknown[]) => unknown }).query = function (
    this: Client,
    ...args: unknown[]
  ) {
    const [text, values, callback] = args;
    const plain = typeof text === 'string' && values === undefined && callback === undefined;
    if (held === null) {
      if (plain && BEGIN.test(text)) {
        held = text;
        return Promise.resolve(resultOf('BEGIN'));
      }
      return query.apply(this, args);
    }
    if (plain && END.test(text)) {
      held = null;
      return Promise.resolve(resultOf(text.trim().toUpperCase()));
    }
    const begin = held;
    held = null;
    const stream = (this as unknown as { connection: { stream: Writable } }).connection.stream;
    stream.cork();
    try {
      const reply = args.find((a) => typeof a === 'function') as Callback | undefined;
      if (reply !== undefined) {
        let failed: Error | null = null;
        query.call(this, begin, (error: Error | null) => (failed = error));
        return query.apply(
          this,
          args.map((a) =>
            a === reply ? (error: Error | null, res: unknown) => reply(failed ?? error, res) : a,
          ),
        );
      }
      const begun = query.call(this, begin) as Promise<unknown>;
      const answered = query.apply(this, args) as Promise<unknown>;
      return begun.then(
        () => answered,
        (error: unknown) => {
          answered.catch(() => undefined);
          throw error;
        },
      );
    } finally {
      stream.uncork();
    }
  };
}

type Callback = (error: Error | null, result?: unknown) => void;

const BEGIN = /^\s*(START\s+TRANSACTION|BEGIN)\b/i;
const END = /^\s*(COMMIT|ROLLBACK)\s*;?\s*$/i;

/** The result node-postgres gives a statement without rows, for the statements not sent. */
function resultOf(command: string) {
  return { command, rowCount: null, oid: null, rows: [], fields: [] };
}
