import { connect, ErrorCode, NatsError, type ConnectionOptions, type NatsConnection } from 'nats';
import { InfrastructureUnavailableError } from '@openq/persistence';

const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ETIMEDOUT',
  'ECONNRESET',
]);

/** True when `error` says no NATS server answered (refused, unknown host, timed out). */
export function isNatsUnreachable(error: unknown): boolean {
  if (error instanceof NatsError) {
    return (
      error.code === ErrorCode.ConnectionRefused ||
      error.code === ErrorCode.ConnectionTimeout ||
      error.code === ErrorCode.Timeout
    );
  }
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && UNREACHABLE_CODES.has(code);
}

/** The one line printed when NATS is missing: what to start, or what to set. */
export function natsUnavailableMessage(url: string): string {
  return `NATS is not answering at ${redactNatsUrl(url)} — start it (e.g. \`nats-server -js\`) or set NATS_URL.`;
}

/** `nats://user:pass@host:4222` → `nats://user:***@host:4222` (for logs and error lines). */
export function redactNatsUrl(url: string): string {
  return url.replace(/\/\/([^:@/]+):([^@/]+)@/g, '//$1:***@');
}

/**
 * Connects to NATS (`url` may list several servers separated by commas). A server that is not
 * there at start becomes `InfrastructureUnavailableError`; once connected, the client reconnects
 * forever, so a NATS restart never takes the process down. Requests carry no async stack traces.
 */
export async function connectNats(
  url: string,
  name: string,
  options: Partial<ConnectionOptions> = {},
): Promise<NatsConnection> {
  try {
    return await connect({
      servers: url.split(',').map((s) => s.trim()),
      name,
      maxReconnectAttempts: -1,
      reconnectTimeWait: 1000,
      timeout: 5000,
      // Every request (an RPC, a JetStream publish) otherwise captures two stack traces up front
      // for the case it times out: 60 → 47 µs of CPU per request, both ends in one process
      // (test/bench/micro/nats-request-cpu.ts). A timeout still says what timed out.
      noAsyncTraces: true,
      ...options,
    });
  } catch (error) {
    if (isNatsUnreachable(error))
      throw new InfrastructureUnavailableError('NATS', natsUnavailableMessage(url));
    throw error;
  }
}
