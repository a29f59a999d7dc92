import type { FastifyInstance } from 'fastify';
import { Histogram, register } from 'prom-client';

export const HTTP_DURATION_METRIC = 'http_request_duration_seconds';

/** One histogram per process (several services may share it in laptop mode: `service` tells them apart). */
function httpDurationHistogram(): Histogram<'service' | 'method' | 'route' | 'status_code'> {
  const existing = register.getSingleMetric(HTTP_DURATION_METRIC);
  if (existing) return existing as Histogram<'service' | 'method' | 'route' | 'status_code'>;
  return new Histogram({
    name: HTTP_DURATION_METRIC,
    help: 'HTTP request duration in seconds, by route pattern and status code',
    labelNames: ['service', 'method', 'route', 'status_code'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  });
}

/**
 * Observes every response with its route *pattern* (`/projects/:projectId/...`, never the raw
 * URL, so label cardinality stays bounded); requests that matched no route count as `unmatched`.
 */
export function installHttpMetrics(fastify: FastifyInstance, service: string): void {
  const histogram = httpDurationHistogram();
  fastify.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched';
    histogram.observe(
      { service, method: request.method, route, status_code: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
    done();
  });
}
