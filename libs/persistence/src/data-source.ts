import { Client } from 'pg';
import { DataSource, MigrationExecutor, type MixedList, type EntitySchema } from 'typeorm';
import { assertIdentifier, databaseNameOf, redactUrl, withDatabase } from './database-url';
import { isTransientDbError } from './db-errors';
import { DeadLetterRecord } from './records/dead-letter.record';
import { InboxRecord } from './records/inbox.record';
import { OutboxRecord } from './records/outbox.record';
import { ConsumerPositionRecord } from './records/consumer-position.record';
import { MessagingTables1764470000000 } from './migrations/1764470000000-messaging-tables';
import { ConsumerPositions1796083200000 } from './migrations/1796083200000-consumer-positions';
import { OutboxAfterCommit1796169600000 } from './migrations/1796169600000-outbox-after-commit';
import { InfrastructureUnavailableError } from './unavailable';
import { enableWriteBehind } from './write-behind';
import { prepareRepeatedStatements } from './prepared-statements';
import { pipelineTransactions } from './pipelined-transactions';

// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
type Constructor = Function;

export interface DatabaseOptions {
  /** `postgres://user@host:port/database`; the database is created when missing. */
  url: string;
  /** The service's own schema (created when missing); every table of the service lives there. */
  schema: string;
  entities?: MixedList<Constructor | string | EntitySchema>;
  /** The service's migrations; the messaging tables' migrations always run too. */
  migrations?: Constructor[];
  poolSize?: number;
}

export const MESSAGING_RECORDS = [OutboxRecord, InboxRecord, DeadLetterRecord, ConsumerPositionRecord];

/**
 * Opens the service's data source: creates the database and the schema if they are missing,
 * then runs the checked-in migrations under an advisory lock, so that replicas starting
 * together migrate once. `synchronize` is never used.
 */
export async function openDatabase(options: DatabaseOptions): Promise<DataSource> {
  const schema = assertIdentifier(options.schema);
  await ensureDatabase(options.url);
  const dataSource = new DataSource({
    type: 'postgres',
    url: options.url,
    schema,
    entities: [...MESSAGING_RECORDS, ...((options.entities as Constructor[]) ?? [])],
    migrations: [
      MessagingTables1764470000000,
      ConsumerPositions1796083200000,
      OutboxAfterCommit1796169600000,
      ...(options.migrations ?? []),
    ],
    migrationsTableName: 'migrations',
    migrationsTransactionMode: 'each',
    synchronize: false,
    logging: false,
    extra: {
      max: options.poolSize ?? 10,
      options: `-c search_path=${schema}`,
      connectionTimeoutMillis: 5000,
      // A query is written when it is queued (pipelined-transactions.ts).
      pipeline: true,
      onConnect: (client: Client) => {
        guardConnection(client);
        prepareRepeatedStatements(client);
        pipelineTransactions(client);
      },
    },
  });
  try {
    await dataSource.initialize();
  } catch (error) {
    throw unavailable(options.url, error);
  }
  await dataSource.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`).catch(ignoreRace);
  await migrate(dataSource, schema);
  enableWriteBehind(dataSource);
  return dataSource;
}

async function migrate(dataSource: DataSource, schema: string): Promise<void> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    await runner.query(`SELECT pg_advisory_lock(hashtext($1))`, [`openq-migrations:${schema}`]);
    // On the connection that holds the lock: a pool of one connection can start too.
    const executor = new MigrationExecutor(dataSource, runner);
    executor.transaction = 'each';
    await executor.executePendingMigrations();
  } finally {
    await runner
      .query(`SELECT pg_advisory_unlock(hashtext($1))`, [`openq-migrations:${schema}`])
      .catch(() => undefined);
    await runner.release();
  }
}

/** Creates the database named by the URL when it does not exist (connecting to `postgres`). */
export async function ensureDatabase(url: string): Promise<void> {
  const name = databaseNameOf(url);
  const admin = new Client({
    connectionString: withDatabase(url, 'postgres'),
    connectionTimeoutMillis: 5000,
  });
  guardConnection(admin);
  try {
    await admin.connect();
  } catch (error) {
    throw unavailable(url, error);
  }
  try {
    const found = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount === 0) {
      await admin.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`).catch(ignoreRace);
    }
  } finally {
    await admin.end();
  }
}

/** Drops a database (tests only: every test run works in a database of its own). */
export async function dropDatabase(url: string): Promise<void> {
  const name = databaseNameOf(url);
  const admin = new Client({ connectionString: withDatabase(url, 'postgres') });
  guardConnection(admin);
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS "${name.replace(/"/g, '""')}" WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}

/**
 * A connection the server ends between two uses (a restart, a failover, `pg_terminate_backend`)
 * emits `error` on its client. pg-pool listens while the client is idle and TypeORM while a query
 * runner holds it, but nobody in the moment a client passes from one to the other: an `error`
 * there was unhandled and took the whole process down. This listener stays for the client's life;
 * the error still reaches whoever uses the client next (it is no longer queryable, a transient
 * error), and the pool drops the client when it comes back.
 */
export function guardConnection(client: {
  on(event: 'error', listener: (error: Error) => void): unknown;
}): void {
  client.on('error', () => undefined);
}

function ignoreRace(error: unknown): void {
  const code =
    (error as { code?: string; driverError?: { code?: string } }).driverError?.code ??
    (error as { code?: string }).code;
  // duplicate_database / unique_violation on pg_namespace: another replica created it first.
  if (code === '42P04' || code === '23505' || code === '42P06') return;
  throw error;
}

function unavailable(url: string, error: unknown): Error {
  if (!isTransientDbError(error)) return error instanceof Error ? error : new Error(String(error));
  return new InfrastructureUnavailableError(
    'PostgreSQL',
    `PostgreSQL is not answering at ${redactUrl(url)} — start it (e.g. \`pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start\`) or set DATABASE_URL.`,
  );
}
