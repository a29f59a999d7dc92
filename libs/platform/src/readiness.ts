import type { NatsConnection } from 'nats';
import type { DataSource } from 'typeorm';

/** A readiness probe: resolves when the dependency works, rejects (with a reason) when not. */
export type ReadinessCheck = () => Promise<unknown>;
export type ReadinessChecks = Record<string, ReadinessCheck>;

export type CheckResult =
  { status: 'up'; durationMs: number } | { status: 'down'; durationMs: number; error: string };

export interface ReadinessReport {
  ready: boolean;
  checks: Record<string, CheckResult>;
}

/** Default budget of one check: readiness must answer fast even when a dependency hangs. */
export const READINESS_CHECK_TIMEOUT_MS = 2000;

/** Rejects with `<what> did not answer within <ms> ms` unless `promise` settles first. */
export async function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms);
    timer.unref();
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Runs every check concurrently, each under its own timeout. */
export async function runReadinessChecks(
  checks: ReadinessChecks,
  timeoutMs = READINESS_CHECK_TIMEOUT_MS,
): Promise<ReadinessReport> {
  const entries = await Promise.all(
    Object.entries(checks).map(async ([name, check]): Promise<[string, CheckResult]> => {
      const started = performance.now();
      const durationMs = () => Math.round(performance.now() - started);
      try {
        await withTimeout(Promise.resolve().then(check), timeoutMs, name);
        return [name, { status: 'up', durationMs: durationMs() }];
      } catch (error) {
        return [
          name,
          {
            status: 'down',
            durationMs: durationMs(),
            error: error instanceof Error ? error.message : String(error),
          },
        ];
      }
    }),
  );
  return { ready: entries.every(([, r]) => r.status === 'up'), checks: Object.fromEntries(entries) };
}

/** NATS is ready when the connection is open, not draining, and answers a PING round trip. */
export function natsReadinessCheck(nc: NatsConnection, timeoutMs = 1000): ReadinessCheck {
  return async () => {
    if (nc.isClosed()) throw new Error('the NATS connection is closed');
    if (nc.isDraining()) throw new Error('the NATS connection is draining');
    const flushed = nc.flush();
    // While reconnecting the flush stays pending; it must not surface later as an unhandled rejection.
    flushed.catch(() => undefined);
    await withTimeout(flushed, timeoutMs, 'NATS (reconnecting?)');
  };
}

/** How long after the pool lost a connection PostgreSQL still counts as not ready. */
export const CONNECTION_DROP_GRACE_MS = 2000;

/**
 * PostgreSQL is ready when the data source is initialised, has not lost a pooled connection in
 * the last `dropGraceMs`, and `SELECT 1` comes back quickly. The drops matter: while the server
 * restarts or fails over, or an operator terminates backends, a fresh connection may still answer
 * `SELECT 1` while every transaction in flight is cut — the service is not doing its work.
 */
export function dataSourceReadinessCheck(
  dataSource: DataSource,
  timeoutMs = 1000,
  dropGraceMs = CONNECTION_DROP_GRACE_MS,
): ReadinessCheck {
  let lastDrop = 0;
  // TypeORM's postgres driver keeps its pg Pool in `master`; the pool emits `error` when a
  // connection it holds is terminated by the server.
  const pool = (
    dataSource.driver as unknown as { master?: { on?: (event: 'error', listener: () => void) => unknown } }
  ).master;
  pool?.on?.('error', () => {
    lastDrop = Date.now();
  });
  return async () => {
    if (!dataSource.isInitialized) throw new Error('the database connection is not initialised');
    const since = Date.now() - lastDrop;
    if (since < dropGraceMs) throw new Error(`PostgreSQL dropped a connection ${since} ms ago`);
    const query = dataSource.query('SELECT 1');
    query.catch(() => undefined);
    await withTimeout(query, timeoutMs, 'PostgreSQL');
  };
}
