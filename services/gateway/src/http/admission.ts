import underPressure from '@fastify/under-pressure';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Counter, Gauge, register } from 'prom-client';

/** Requests handled at once by one gateway process, by kind. */
export interface AdmissionSettings {
  reads: number;
  writes: number;
  /** Mean event-loop delay (ms, sampled every 100 ms) past which new requests are shed; 0: off. */
  maxEventLoopDelayMs: number;
}

/** The reason of a request shed because the gateway already handles as many as it allows. */
export const OVERLOADED = 'sobrecarregado';

type Kind = 'read' | 'write';

const shed =
  (register.getSingleMetric('openq_gateway_shed_total') as Counter<'kind'> | undefined) ??
  new Counter({
    name: 'openq_gateway_shed_total',
    help: 'Requests answered 503 sobrecarregado at once because the gateway was at its bound, by kind',
    labelNames: ['kind'],
  });
const inFlight =
  (register.getSingleMetric('openq_gateway_in_flight') as Gauge<'kind'> | undefined) ??
  new Gauge({
    name: 'openq_gateway_in_flight',
    help: 'Requests being handled now, by kind',
    labelNames: ['kind'],
  });

/** Not counted: probes and scrapes, and the live streams (long-lived, with caps of their own). */
function exempt(request: FastifyRequest): boolean {
  const path = request.url.split('?')[0]!;
  return path === '/healthz' || path === '/readyz' || path === '/metrics' || path.endsWith('/stream');
}

/**
 * Bounds the work in flight in one gateway process: at most `reads` GET requests and `writes`
 * others at once. One more is answered at once — before authentication or parsing — with 503
 * `sobrecarregado` and `Retry-After: 1`, so a burst costs its excess a quick refusal and the
 * requests admitted keep their latency instead of all queueing behind each other. Writes get a
 * far larger bound: the services group-commit them, and an engine refused a write must retry its
 * tool call, while a refused read costs a browser a retry and nothing else.
 */
export async function installAdmission(fastify: FastifyInstance, settings: AdmissionSettings): Promise<void> {
  const counts: Record<Kind, number> = { read: 0, write: 0 };
  const bound: Record<Kind, number> = { read: settings.reads, write: settings.writes };
  if (settings.maxEventLoopDelayMs > 0) {
    // When the process itself is saturated (its event loop late), requests queue before any
    // count can see them: shedding then goes by the loop's delay (the Fastify team's plugin).
    await fastify.register(underPressure, {
      maxEventLoopDelay: settings.maxEventLoopDelayMs,
      sampleInterval: 100,
      // What the handler returns is sent as the body, nothing lets the request through (the
      // plugin's behaviour; its types say `void`).
      pressureHandler: ((request: FastifyRequest, reply: FastifyReply) =>
        exempt(request) ? undefined : overloaded(reply, request)) as never,
    });
  }
  fastify.addHook('onRequest', async (request, reply) => {
    if (exempt(request)) return;
    const kind = kindOf(request);
    if (counts[kind] >= bound[kind]) return reply.send(overloaded(reply, request));
    counts[kind]++;
    inFlight.inc({ kind });
    // 'close' comes once however the exchange ends: answered, failed, or the client gone.
    reply.raw.once('close', () => {
      counts[kind]--;
      inFlight.dec({ kind });
    });
  });
}

const kindOf = (request: FastifyRequest): Kind =>
  request.method === 'GET' || request.method === 'HEAD' ? 'read' : 'write';

/** Sets the status and headers of a shed request and returns its body (the contract's shape). */
function overloaded(reply: FastifyReply, request: FastifyRequest): string {
  shed.inc({ kind: kindOf(request) });
  void reply.code(503).header('retry-after', '1').header('content-type', 'application/json; charset=utf-8');
  return JSON.stringify({
    statusCode: 503,
    reason: OVERLOADED,
    message: 'openq is busy right now; try again in a second',
    retryAfterSeconds: 1,
  });
}
