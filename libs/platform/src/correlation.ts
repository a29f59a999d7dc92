import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { CORRELATION_HEADER } from '@openq/messaging';

/** Header that carries the correlation id in and out of every HTTP exchange and NATS request. */
export { CORRELATION_HEADER };

const SAFE_CORRELATION_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const ASSIGNED = Symbol('openq.correlationId');

type WithCorrelation = IncomingMessage & { [ASSIGNED]?: string };

/**
 * The request's correlation id: the caller's `x-correlation-id` when it is a safe token, else a
 * fresh UUID. Memoised on the raw request so Fastify's request id, the pino request logger and
 * the RPC headers all carry the same value.
 */
export function correlationIdOf(req: IncomingMessage): string {
  const r = req as WithCorrelation;
  if (r[ASSIGNED]) return r[ASSIGNED];
  const given = req.headers?.[CORRELATION_HEADER];
  const id = typeof given === 'string' && SAFE_CORRELATION_ID.test(given) ? given : randomUUID();
  r[ASSIGNED] = id;
  return id;
}
