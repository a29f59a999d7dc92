/** PostgreSQL error classification, by SQLSTATE and driver error codes. */
const TRANSIENT_SQLSTATES = new Set([
  '40001', // serialization_failure
  '40P01', // deadlock_detected
  '55P03', // lock_not_available
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now
  '53300', // too_many_connections
  '08000',
  '08003',
  '08006',
  '08001',
  '08004',
]);
const TRANSIENT_NODE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

function codeOf(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const e = error as { code?: unknown; driverError?: { code?: unknown } };
  const code = e.driverError?.code ?? e.code;
  return typeof code === 'string' ? code : undefined;
}

export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  if (codeOf(error) !== '23505') return false;
  if (!constraint) return true;
  const e = error as { constraint?: string; driverError?: { constraint?: string } };
  return (e.driverError?.constraint ?? e.constraint) === constraint;
}

/** Errors worth retrying later (the database is restarting, a lock conflict, a lost connection). */
export function isTransientDbError(error: unknown): boolean {
  const code = codeOf(error);
  if (code && (TRANSIENT_SQLSTATES.has(code) || TRANSIENT_NODE_CODES.has(code))) return true;
  const message = error instanceof Error ? error.message : String(error);
  // "timeout exceeded when trying to connect": pg-pool found no free connection in time (an
  // overloaded or unreachable database); like a lost connection, it passes. "query runner was
  // already released": TypeORM let go of a transaction's connection because the server ended it.
  return /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error|terminating connection|the database system is (starting up|shutting down)|Cannot use a pool after calling end|query runner (was )?already released/i.test(
    message,
  );
}

/**
 * [openq] issue #34 PostgreSQL refused who connects: a wrong password (28P01) or a user it does not
 * let in (28000, pg_hba.conf). Not transient: the same DATABASE_URL will be refused again.
 */
export function isDbAuthFailure(error: unknown): boolean {
  const code = codeOf(error);
  return code === '28P01' || code === '28000';
}
