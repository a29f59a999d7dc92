import type { Writable } from 'node:stream';
import type { Client } from 'pg';

/**
 * A transaction's BEGIN goes to PostgreSQL with its first statement, in one write (issue #29).
 *
 * TypeORM opens every transaction with `START TRANSACTION` and waits for its answer before it sends
 * the transaction's first statement: a round trip that carries nothing, once per transaction
 * (three per park + answer + resume cycle). On a pooled connection in pg's pipeline mode (pg ≥
 * 8.23: a query is written at once, without waiting for the answers before it), this keeps the
 * BEGIN back and writes it right before the next statement of the connection; both answers come
 * back in one read, in order. What the caller sees is unchanged:
 *
 * - the BEGIN's promise resolves at once (it cannot fail on its own: a broken connection fails
 *   the statement that carries it, with the same error);
 * - the first statement resolves with its own result once the BEGIN succeeded too, and rejects with
 *   the BEGIN's error if that one failed;
 * - a transaction that sends nothing (a COMMIT or ROLLBACK right after its BEGIN) costs nothing:
 *   neither is sent;
 * - a connection handed back to the pool with its BEGIN still held forgets it (`forgetHeldBegin`),
 *   so no later user of the connection starts a transaction it did not ask for.
 *
 * Statements sent with a callback (pg-pool's `pool.query`) never carry a held BEGIN; outside a
 * transaction nothing changes. Installed once per connection by `openDatabase`'s `onConnect`.
 */
export function beginWithFirstStatement(client: Client): void {
  const query = client.query as (...args: unknown[]) => unknown;
  const state: Held = { begin: null };
  held.set(client, state);
  (client as unknown as { query: (...args: unknown[]) => unknown }).query = function (
    this: Client,
    ...args: unknown[]
  ) {
    const [text, values] = args;
    const bare =
      typeof text === 'string' && (values === undefined || (Array.isArray(values) && values.length === 0));
    const promised = args.length <= 2 && typeof values !== 'function';
    if (bare && promised && state.begin === null && BEGIN.test(text)) {
      state.begin = text;
      return Promise.resolve(resultOf('BEGIN'));
    }
    if (state.begin === null) return query.apply(this, args);
    if (bare && promised && END.test(text)) {
      // Nothing was sent inside it: there is no transaction to end.
      state.begin = null;
      return Promise.resolve(resultOf(/^\s*COMMIT/i.test(text) ? 'COMMIT' : 'ROLLBACK'));
    }
    const begin = state.begin;
    state.begin = null;
    // Both are written at once (pipeline mode): one write to the socket for the two.
    const stream = (this as unknown as { connection?: { stream?: Writable } }).connection?.stream;
    stream?.cork();
    let begun: Promise<unknown>;
    let result: unknown;
    try {
      begun = query.call(this, begin) as Promise<unknown>;
      result = query.apply(this, args);
    } finally {
      stream?.uncork();
    }
    if (!promised) {
      // A callback's statement: its own error tells a failed BEGIN's (the connection's) story.
      begun.catch(() => undefined);
      return result;
    }
    return begun.then(
      () => result,
      (error: unknown) => {
        (result as Promise<unknown>).catch(() => undefined);
        throw error;
      },
    );
  };
}

/** A connection back in the pool holds no BEGIN (pg-pool's `release` event). */
export function forgetHeldBegin(client: unknown): void {
  const state = held.get(client as Client);
  if (state) state.begin = null;
}

interface Held {
  /** The BEGIN's text, while it waits for the transaction's first statement. */
  begin: string | null;
}

const held = new WeakMap<Client, Held>();
const BEGIN = /^\s*(START\s+TRANSACTION|BEGIN)\s*;?\s*$/i;
const END = /^\s*(COMMIT|ROLLBACK|END|ABORT)\s*;?\s*$/i;

function resultOf(command: string) {
  return { command, rowCount: null, oid: null, rows: [], fields: [] };
}
