import type { Writable } from 'node:stream';
import type { Client, QueryResult } from 'pg';

/**
 * A transaction's statements without the waits that carry nothing (issue #29).
 *
 * The pooled connections are in node-postgres' pipeline mode (`pipeline: true`, set by
 * `openDatabase`): a query is written as soon as it is queued, each with its own Sync, and the
 * replies are matched in order. On top of that, on every pooled connection:
 *
 * - **`START TRANSACTION` rides with the first statement.** TypeORM awaits it before it sends
 *   anything else: a round trip that carries nothing. It is held and answered at once, then
 *   written together with the transaction's first statement, in one write. A `BEGIN` that fails
 *   (a dropped connection, a bad isolation level) fails that first statement. `COMMIT` or
 *   `ROLLBACK` with nothing in between sends nothing.
 * - **A statement may be sent ahead** (`sendAhead`): its reply is not awaited before the next
 *   statement goes, so the last write of a transaction (the outbox insert, whose rows are only
 *   needed after commit) and the `COMMIT` behind it leave in one write and cost one round trip.
 *   If it fails, PostgreSQL aborts the transaction: the statements behind it fail with its error
 *   (not "current transaction is aborted"), and so does the `COMMIT`, which PostgreSQL answers
 *   with a `ROLLBACK` instead of an error.
 * - **A `COMMIT` that rolled back fails.** node-postgres resolves it (the command tag is just
 *   `ROLLBACK`); here it rejects with the transaction's last error, and the `ROLLBACK` the caller
 *   sends next is answered without a round trip (there is no transaction left to end).
 *
 * What PostgreSQL sees, and the order it sees it in, is unchanged; only the waits between are gone.
 */
export function pipelineTransactions(client: Client): void {
  const query = client.query as (...args: unknown[]) => unknown;
  const stream = (): Writable =>
    (client as unknown as { connection: { stream: Writable } }).connection.stream;
  /** The `START TRANSACTION` held for the first statement. */
  let held: string | null = null;
  /** Between a BEGIN (held or sent) and its end, as this connection's statements tell. */
  let open = false;
  /** The transaction's last error (25P02 aside): what its later statements and COMMIT fail with. */
  let failure: unknown = null;
  /** A COMMIT rolled back: the caller's ROLLBACK has nothing to end. */
  let ended = false;
  /** A sent-ahead statement keeps the socket corked until the next statement is written. */
  let corked = false;
  let ahead = false;

  const release = () => {
    if (!corked) return;
    corked = false;
    stream().uncork();
  };

  /** Writes `args` (after the held BEGIN, if any) in one write; the reply as a promise or callback. */
  const submit = (self: Client, args: unknown[]): unknown => {
    const sendingAhead = ahead;
    ahead = false;
    const socket = stream();
    socket.cork();
    try {
      const begin = held;
      held = null;
      const reply = args.find((a) => typeof a === 'function') as Callback | undefined;
      if (reply !== undefined) {
        let failed: Error | null = null;
        if (begin !== null)
          query.call(self, begin, (error: Error | null) => {
            if (error) open = false;
            failed = error;
          });
        return query.apply(
          self,
          args.map((a) =>
            a === reply ? (error: Error | null, res: unknown) => reply(failed ?? error, res) : a,
          ),
        );
      }
      const inTransaction = open;
      const begun = begin === null ? null : (query.call(self, begin) as Promise<unknown>);
      const answered = (query.apply(self, args) as Promise<QueryResult>).catch((error: unknown) => {
        if (failure !== null && codeOf(error) === ABORTED) throw failure;
        if (inTransaction) failure = error;
        throw error;
      });
      if (begun === null) return answered;
      return begun.then(
        () => answered,
        (error: unknown) => {
          open = false; // no transaction was opened
          answered.catch(() => undefined);
          throw error;
        },
      );
    } finally {
      if (sendingAhead && !corked) {
        corked = true;
        setImmediate(release);
      } else {
        socket.uncork();
        release();
      }
    }
  };

  (client as unknown as { query: (...args: unknown[]) => unknown }).query = function (
    this: Client,
    ...args: unknown[]
  ) {
    const [text, values, callback] = args;
    const plain = typeof text === 'string' && values === undefined && callback === undefined;
    const wasEnded = ended;
    ended = false;
    if (plain && BEGIN.test(text) && !open) {
      held = text;
      open = true;
      failure = null;
      return Promise.resolve(resultOf('BEGIN'));
    }
    if (plain && END.test(text)) {
      const command = text.trim().replace(/;$/, '').toUpperCase();
      if (held !== null || (wasEnded && command === 'ROLLBACK')) {
        held = null;
        open = false;
        return Promise.resolve(resultOf(command));
      }
      if (command !== 'COMMIT' || !open) {
        open = false;
        return submit(this, args);
      }
      open = false;
      const cause = () => failure;
      return (submit(this, args) as Promise<QueryResult>).then((result) => {
        if (result.command !== 'ROLLBACK') return result;
        ended = true;
        throw cause() ?? new Error('COMMIT rolled the transaction back: a statement in it had failed');
      });
    }
    return submit(this, args);
  };

  (client as unknown as Record<symbol, unknown>)[SEND_AHEAD] = (text: string, values: unknown[]) => {
    ahead = true;
    return client.query(text, values);
  };
}

const SEND_AHEAD = Symbol('openq:sendAhead');

/** Whether `client` is a connection of `pipelineTransactions` (a statement may be sent ahead). */
export function canSendAhead(client: unknown): boolean {
  return typeof (client as Record<symbol, unknown>)[SEND_AHEAD] === 'function';
}

/**
 * Sends `text` on a connection of `pipelineTransactions` without waiting for its reply: the next
 * statement goes right behind it, in the same write. The reply is the returned promise.
 */
export function sendAhead(client: unknown, text: string, values: unknown[]): Promise<QueryResult> {
  const send = (client as Record<symbol, (text: string, values: unknown[]) => Promise<QueryResult>>)[
    SEND_AHEAD
  ]!;
  return send(text, values);
}

type Callback = (error: Error | null, result?: unknown) => void;

const BEGIN = /^\s*(START\s+TRANSACTION|BEGIN)\b/i;
const END = /^\s*(COMMIT|ROLLBACK)\s*;?\s*$/i;
/** SQLSTATE in_failed_sql_transaction: "current transaction is aborted". */
const ABORTED = '25P02';

function codeOf(error: unknown): unknown {
  return (error as { code?: unknown } | null)?.code;
}

/** The result node-postgres gives a statement without rows, for the statements not sent. */
function resultOf(command: string) {
  return { command, rowCount: null, oid: null, rows: [], fields: [] };
}
