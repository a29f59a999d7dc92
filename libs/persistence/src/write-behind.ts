import { QueryFailedError } from 'typeorm';
import type {
  AfterQueryEvent,
  BeforeQueryEvent,
  DataSource,
  EntityManager,
  EntitySubscriberInterface,
  QueryRunner,
} from 'typeorm';
import { canSendAhead, sendAhead } from './pipelined-transactions';

/**
 * Write-behind inside a transaction (issue #14): a write whose result nobody reads (an upsert of
 * a locked row, an append to a history) need not cost a round trip of its own. `deferWrite` queues
 * it on the transaction's query runner; the queue goes to PostgreSQL, as data-modifying CTEs of one
 * statement, just before the next statement of that transaction of any kind — so every later read,
 * lock or COMMIT sees it, exactly as if it had run when it was queued; on a pipelined connection
 * (`pipelineTransactions`) it goes ahead of that statement, in the same write, without a round
 * trip of its own (issue #29, session 21). `queryAfterWrites` is the next statement that takes the
 * queue along instead of flushing it first (the outbox insert, the last write of most
 * transactions). A ROLLBACK (to a savepoint too) drops the queue: every write in it came after the
 * last statement sent, so after the savepoint.
 *
 * What may be deferred: single INSERT / UPDATE / DELETE statements, without RETURNING, whose
 * failure fails the transaction anyway (a failure surfaces from the statement that flushes them,
 * with the write's own error as the `QueryFailedError`'s `driverError`, and from the COMMIT), that
 * never write a row another deferred write of the same queue writes (one statement cannot change a
 * row twice: a write given the `key` of one still queued sends the queue first), and whose
 * parameters are `$n` only. Outside a transaction, or on a data source without write-behind, a
 * write runs at once.
 */
export async function deferWrite(
  manager: EntityManager,
  sql: string,
  params: readonly unknown[],
  key?: string,
): Promise<void> {
  const runner = manager.queryRunner;
  if (!runner?.isTransactionActive || !enabled.has(runner.connection)) {
    await manager.query(sql, [...params]);
    return;
  }
  await sendQueueIfItWrites(manager, runner, key);
  pendingOf(runner).push({ sql, params, key });
}

/** A write of `key` while a queued one writes it: the queue goes first (one statement, one change a row). */
async function sendQueueIfItWrites(manager: EntityManager, runner: QueryRunner, key?: string): Promise<void> {
  if (key !== undefined && pendingOf(runner).some((w) => w.key === key || w.keys?.has(key)))
    await flushQueue(manager, take(runner));
}

/**
 * A deferred write of rows (issue #29): `sql` takes each column as an array parameter (`$1` … `$n`
 * in `row`'s order, e.g. `INSERT … SELECT … FROM unnest($1::uuid[], $2::text[])`), and the rows
 * that later calls in the same transaction give for the same `sql` join it while it is queued. A
 * batch's handlers that each write a row so cost one statement of one text (prepared once), not
 * one per message. The same rules as `deferWrite` apply; outside a transaction the row goes at once.
 *
 * - `key`: a row given the key of a row still queued (the same gate cycle saved twice in a batch)
 *   sends the queue first, as `deferWrite` does: an upsert cannot change a row twice.
 * - `untilCommit`: the rows are read by nothing in the transaction (a plan for another loop, read
 *   by other transactions only), so the transaction's other statements do not send them: they stay
 *   queued, and later rows keep joining them, until the transaction's last write or its `COMMIT`
 *   (a `SAVEPOINT` or `RELEASE` sends them too, so a rollback to a savepoint drops only what came
 *   after it). A batch's handlers that read between their rows still write them in one statement.
 */
export async function deferRows(
  manager: EntityManager,
  sql: string,
  row: readonly unknown[],
  options: { key?: string; untilCommit?: boolean } = {},
): Promise<void> {
  const runner = manager.queryRunner;
  if (!runner?.isTransactionActive || !enabled.has(runner.connection)) {
    await manager.query(
      sql,
      row.map((value) => [value]),
    );
    return;
  }
  const { key, untilCommit } = options;
  await sendQueueIfItWrites(manager, runner, key);
  let queued = pendingOf(runner).find((w) => w.rowsOf === sql);
  if (queued) row.forEach((value, i) => (queued!.params[i] as unknown[]).push(value));
  else {
    queued = { sql, params: row.map((value) => [value]), rowsOf: sql };
    if (untilCommit) queued.untilCommit = true;
    pendingOf(runner).push(queued);
  }
  if (key !== undefined) (queued.keys ??= new Set()).add(key);
}

/** Runs `sql` with the transaction's queued writes as CTEs before it: one round trip for all. */
export async function queryAfterWrites<T = unknown>(
  manager: EntityManager,
  sql: string,
  params: readonly unknown[],
): Promise<T> {
  const runner = manager.queryRunner;
  const writes = runner ? take(runner) : [];
  if (writes.length === 0) return manager.query(sql, [...params]) as Promise<T>;
  if (!foldable(sql, writes, params.length)) {
    await flushQueue(manager, writes);
    return manager.query(sql, [...params]) as Promise<T>;
  }
  const combined = combine(writes, { sql, params });
  return manager.query(combined.sql, combined.params) as Promise<T>;
}

/**
 * `queryAfterWrites` for a transaction's last write whose result is needed only after COMMIT (the
 * outbox insert): on a pipelined connection (`pipelineTransactions`) the statement is sent without
 * waiting for its reply, so the COMMIT behind it leaves in the same write and the two cost one round
 * trip. `reply` is its rows; if it fails, so does the transaction's COMMIT (with its error), and
 * `reply` rejects. Anywhere else (outside a transaction, a unit run as one statement, another
 * connection) it is `queryAfterWrites`, awaited before this returns.
 */
export async function sendAheadAfterWrites<T = unknown>(
  manager: EntityManager,
  sql: string,
  params: readonly unknown[],
): Promise<{ reply: Promise<T> }> {
  const { runner, client } = pipelinedTransactionOf(manager);
  if (!runner || !client) return { reply: Promise.resolve(await queryAfterWrites<T>(manager, sql, params)) };
  let statement = { sql, params: [...params] };
  const writes = take(runner);
  if (writes.length > 0) {
    if (foldable(sql, writes, params.length)) statement = combine(writes, { sql, params });
    else for (const write of statementsOf(writes)) void ahead(runner, client, write);
  }
  return { reply: ahead<T>(runner, client, statement) };
}

/**
 * A statement whose result nobody reads and whose failure fails the transaction anyway (an
 * advisory lock, a projection's write), sent without waiting for its reply: the transaction's next
 * statement goes right behind it, in the same write, and PostgreSQL still runs it after this one,
 * with a snapshot taken after it (a lock then a read stay two statements; a write is seen by the
 * statements behind it, which `deferWrite`'s CTEs of one statement would not be). If it fails, the next statement fails with its
 * error, or the COMMIT does. The transaction's deferred writes go ahead of it, as a statement of
 * their own. `reply` is its rows, for a caller that wants to know later whether it failed. Outside a
 * pipelined transaction it is an awaited statement.
 */
export async function sendAheadOfNext(
  manager: EntityManager,
  sql: string,
  params: readonly unknown[],
): Promise<{ reply: Promise<unknown> }> {
  const { runner, client } = pipelinedTransactionOf(manager);
  if (!runner || !client) return { reply: Promise.resolve(await manager.query(sql, [...params])) };
  // Its failure fails what comes behind it, or the COMMIT: nothing waits for the reply itself.
  for (const statement of statementsOf(take(runner, 'now'))) void ahead(runner, client, statement);
  return { reply: ahead(runner, client, { sql, params: [...params] }) };
}

/** The transaction's runner and its pipelined connection, when statements may be sent ahead. */
function pipelinedTransactionOf(manager: EntityManager): { runner?: QueryRunner; client?: unknown } {
  const runner = manager.queryRunner;
  const data = runner?.data as Record<string, unknown> | undefined;
  const client = (runner as { databaseConnection?: unknown } | undefined)?.databaseConnection;
  if (!runner?.isTransactionActive || !client || data?.[HELD] !== undefined || !canSendAhead(client))
    return {};
  return { runner, client };
}

/** Sends `statement` ahead; its rows, or a `QueryFailedError` (also handled: a failure fails the COMMIT). */
function ahead<T>(
  runner: QueryRunner,
  client: unknown,
  statement: { sql: string; params: unknown[] },
): Promise<T> {
  const started = Date.now();
  const reply = sendAhead(client, statement.sql, statement.params).then(
    (raw) => {
      afterQuery(runner, statement, Date.now() - started, raw);
      return raw.rows as T;
    },
    (error: unknown) => {
      throw new QueryFailedError(statement.sql, statement.params, error as Error);
    },
  );
  reply.catch(() => undefined);
  return reply;
}

/** What TypeORM's `query` tells the data source's subscribers (a `StatementRecorder`). */
function afterQuery(
  runner: QueryRunner,
  statement: { sql: string; params: unknown[] },
  executionTime: number,
  rawResults: unknown,
): void {
  for (const subscriber of runner.connection.subscribers)
    void subscriber.afterQuery?.({
      dataSource: runner.connection,
      connection: runner.connection,
      queryRunner: runner,
      manager: runner.manager,
      query: statement.sql,
      parameters: statement.params,
      success: true,
      executionTime,
      rawResults,
    } as AfterQueryEvent);
}

/** Why `inOneStatement` did not do the work: the caller does it the usual way (a transaction). */
export type NotInOneStatement =
  /** The work sent a statement of its own (a read, a write that returns rows, a nested transaction). */
  | { done: false; why: 'statement' }
  /** The work threw, or the statement failed (its check too): nothing of it was kept. */
  | { done: false; why: 'failed'; error: unknown };

/**
 * A unit of work as ONE statement, without START TRANSACTION and COMMIT (issue #29): `work` runs
 * as inside a transaction whose statements are held back, so each write it defers (`deferWrite`,
 * `deferRows`) is queued; then the queue goes to PostgreSQL as data-modifying CTEs ahead of
 * `final`, in one statement that commits on its own (atomic: all of it or nothing). `final` runs
 * first and may fail the whole statement on purpose (a check that raises): its own CTEs and its
 * SELECT are read before the queued writes run, as PostgreSQL runs unread data-modifying CTEs
 * after the main query. A work that needs a statement of its own (its first one is refused with
 * `HeldStatementRefused`) is not done: `{ done: false, why: 'statement' }`. Nothing is kept either
 * way but what the one statement commits. Four statements (START, a claim, the writes, COMMIT)
 * become one: ~3 × less Node CPU and ~½ the PostgreSQL CPU in a micro-benchmark of a unit.
 */
export async function inOneStatement<T>(
  dataSource: DataSource,
  work: (manager: EntityManager) => Promise<T>,
  final: { sql: string; params: readonly unknown[] },
): Promise<{ done: true; value: T; rows: unknown[] } | NotInOneStatement> {
  if (!enabled.has(dataSource)) return { done: false, why: 'statement' };
  const runner = dataSource.createQueryRunner();
  const held: Held = { refused: false, sending: false };
  const data = runner.data as Record<string, unknown>;
  data[HELD] = held;
  // Deferred writes queue only inside a transaction: this one is never started.
  setActive(runner, true);
  let outcome: { done: true; value: T; rows: unknown[] } | NotInOneStatement;
  try {
    outcome = await runHeld(runner, held, work, final);
  } catch (error) {
    outcome = { done: false, why: 'failed', error };
  }
  try {
    // To the data source's subscribers the unit ends as a transaction does: what one handed to
    // them while it ran (an after-commit publisher's marks) is taken back on a rollback.
    setActive(runner, false);
    delete data[HELD];
    await runner.broadcaster.broadcast(outcome.done ? 'AfterTransactionCommit' : 'AfterTransactionRollback');
  } finally {
    await runner.release();
  }
  return outcome;
}

async function runHeld<T>(
  runner: QueryRunner,
  held: Held,
  work: (manager: EntityManager) => Promise<T>,
  final: { sql: string; params: readonly unknown[] },
): Promise<{ done: true; value: T; rows: unknown[] } | NotInOneStatement> {
  let value: T;
  try {
    value = await work(runner.manager);
  } catch (error) {
    return held.refused ? { done: false, why: 'statement' } : { done: false, why: 'failed', error };
  }
  if (held.refused) return { done: false, why: 'statement' };
  const writes = take(runner);
  held.sending = true;
  setActive(runner, false);
  const params = writes.reduce((n, w) => n + w.params.length, final.params.length);
  if (params > MAX_PARAMS) return { done: false, why: 'statement' };
  const statement =
    writes.length === 0 ? { sql: final.sql, params: [...final.params] } : combine(writes, final);
  try {
    const rows = (await runner.query(statement.sql, statement.params)) as unknown[];
    return { done: true, value, rows };
  } catch (error) {
    return { done: false, why: 'failed', error };
  }
}

function setActive(runner: QueryRunner, active: boolean): void {
  (runner as { isTransactionActive: boolean }).isTransactionActive = active;
}

/**
 * Whether `manager`'s unit is being tried as one statement (`inOneStatement`): its deferred writes
 * go in that statement and its first statement of its own is refused. A unit that would read only
 * to learn that a row is not there yet may instead write it with a statement that fails when the
 * row is there (the gates' new cycle): the statement fails, and the unit runs again the usual way.
 */
export function runsAsOneStatement(manager: EntityManager): boolean {
  return (manager.queryRunner?.data as Record<string, unknown> | undefined)?.[HELD] !== undefined;
}

/** What a held unit's first statement of its own is refused with (`inOneStatement`). */
export class HeldStatementRefused extends Error {
  constructor() {
    super('a unit of work run as one statement sent a statement of its own');
  }
}

/** Turns write-behind on for a data source (`openDatabase` does, for every service). */
export function enableWriteBehind(dataSource: DataSource): void {
  if (enabled.has(dataSource)) return;
  enabled.add(dataSource);
  dataSource.subscribers.push(new FlushBeforeNextStatement());
}

interface Write {
  sql: string;
  params: readonly unknown[];
  /** The row (or rows) it writes, when another write of the same transaction may write it too. */
  key?: string;
  /** `deferRows`: its statement, while later rows may still join its column arrays. */
  rowsOf?: string;
  /** `deferRows`: the keys of its rows that were given one. */
  keys?: Set<string>;
  /** `deferRows` with `untilCommit`: sent with the transaction's last write or its end only. */
  untilCommit?: boolean;
}

const PENDING = 'openq:writeBehind';
const HELD = 'openq:heldUnit';

/** A unit run by `inOneStatement`: whether it tried a statement of its own; whether its one is going. */
interface Held {
  refused: boolean;
  sending: boolean;
}
const enabled = new WeakSet<DataSource>();
/** PostgreSQL takes at most 65,535 parameters in one statement. */
const MAX_PARAMS = 65_535;

function pendingOf(runner: QueryRunner): Write[] {
  const data = runner.data as Record<string, Write[] | undefined>;
  return (data[PENDING] ??= []);
}

/**
 * Takes the transaction's queue: all of it, or (`now`) what must go before the next statement —
 * the writes queued `untilCommit` stay, in their place.
 */
function take(runner: QueryRunner, which: 'all' | 'now' = 'all'): Write[] {
  const data = runner.data as Record<string, Write[] | undefined>;
  const writes = data[PENDING];
  if (!writes || writes.length === 0) return [];
  if (which === 'now' && writes.some((w) => w.untilCommit)) {
    data[PENDING] = writes.filter((w) => w.untilCommit);
    return writes.filter((w) => !w.untilCommit);
  }
  delete data[PENDING];
  return writes;
}

/** A statement that ends the transaction or opens or ends a savepoint: the whole queue goes (or is dropped) first. */
const ENDS_A_SCOPE = /^\s*(COMMIT|END|ROLLBACK|ABORT|SAVEPOINT|RELEASE|PREPARE\s+TRANSACTION)\b/i;

class FlushBeforeNextStatement implements EntitySubscriberInterface {
  beforeQuery(event: BeforeQueryEvent): Promise<void> | void {
    const runner = event.queryRunner;
    const data = runner.data as Record<string, Write[] | undefined>;
    const held = (data as Record<string, unknown>)[HELD] as Held | undefined;
    if (held && !held.sending) {
      held.refused = true;
      throw new HeldStatementRefused();
    }
    if (!data[PENDING]?.length) return; // the common case: no promise, no extra microtask
    const writes = take(runner, ENDS_A_SCOPE.test(event.query) ? 'all' : 'now');
    if (writes.length === 0 || /^\s*ROLLBACK\b/i.test(event.query)) return;
    return flushQueue(runner.manager, writes);
  }
}

/**
 * Sends a taken queue before the statement that comes next. On a pipelined connection it goes
 * ahead of that statement, in the same write, without a round trip of its own (issue #29): if it
 * fails, PostgreSQL aborts the transaction and the statement behind it fails with its error, or
 * the COMMIT does. Elsewhere it is awaited.
 */
function flushQueue(manager: EntityManager, writes: readonly Write[]): Promise<void> | void {
  const { runner, client } = pipelinedTransactionOf(manager);
  if (!runner || !client) return runWrites(manager, writes);
  for (const statement of statementsOf(writes)) void ahead(runner, client, statement);
}

/** The queue as few statements as the parameter limit allows (one, but for huge queues). */
async function runWrites(manager: EntityManager, writes: readonly Write[]): Promise<void> {
  for (const statement of statementsOf(writes)) await manager.query(statement.sql, statement.params);
}

/** The queue as statements: one write alone, or several as CTEs of one, within the parameter limit. */
function statementsOf(writes: readonly Write[]): { sql: string; params: unknown[] }[] {
  const statements: { sql: string; params: unknown[] }[] = [];
  let group: Write[] = [];
  let params = 0;
  const close = () => {
    if (group.length === 1) statements.push({ sql: group[0]!.sql, params: [...group[0]!.params] });
    else if (group.length > 1) statements.push(combine(group, null));
    group = [];
    params = 0;
  };
  for (const write of writes) {
    if (params + write.params.length > MAX_PARAMS) close();
    group.push(write);
    params += write.params.length;
  }
  close();
  return statements;
}

function foldable(sql: string, writes: readonly Write[], finalParams: number): boolean {
  const total = writes.reduce((n, w) => n + w.params.length, finalParams);
  return total <= MAX_PARAMS && !/^\s*WITH\s+RECURSIVE\b/i.test(sql);
}

/**
 * `WITH openq_w<n-1> AS (write n-1), … openq_w0 AS (write 0) <final>` with the parameters renumbered in order; the final
 * statement's own WITH list, if any, continues the list. Without a final statement, `SELECT 1`.
 */
function combine(writes: readonly Write[], final: Write | null): { sql: string; params: unknown[] } {
  const params: unknown[] = [];
  const ctes = writes.map((w, i) => {
    const sql = renumber(w.sql, params.length);
    params.push(...w.params);
    return `openq_w${i} AS (${sql})`;
  });
  // PostgreSQL runs the data-modifying CTEs that nothing reads last to first (after the main
  // query): listed in reverse, they run in the order queued, so a serial or clock a write takes
  // follows that order as if each had run when queued. Not a documented guarantee; nothing here
  // depends on it for correctness (no two of them write one row).
  ctes.reverse();
  if (!final) return { sql: `WITH ${ctes.join(', ')} SELECT 1`, params };
  const tail = renumber(final.sql, params.length);
  params.push(...final.params);
  const ownWith = /^\s*WITH\s+/i.exec(tail);
  const sql = ownWith
    ? `WITH ${ctes.join(', ')}, ${tail.slice(ownWith[0].length)}`
    : `WITH ${ctes.join(', ')} ${tail}`;
  return { sql, params };
}

function renumber(sql: string, offset: number): string {
  return offset === 0 ? sql : sql.replace(/\$(\d+)/g, (_, n: string) => `$${Number(n) + offset}`);
}
