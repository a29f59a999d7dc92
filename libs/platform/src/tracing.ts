import type { IncomingMessage } from 'node:http';
import { propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Span } from '@opentelemetry/api';
import type { FastifyInstance } from 'fastify';
import { enableMessageTracing, messageTracingEnabled, passThrough } from '@openq/messaging';
import type { OpenqConfig } from './config';

/**
 * W3C trace context across the services with OpenTelemetry. OFF unless
 * `OTEL_EXPORTER_OTLP_ENDPOINT` (or `..._TRACES_ENDPOINT`) is set: then the SDK exports spans of
 * every HTTP request (gateway), request/reply and inbound event, and the trace context rides on
 * NATS request headers and outbox rows. Off, an incoming `traceparent` is passed on unchanged.
 */
let sdk: { shutdown(): Promise<void> } | null = null;

export function tracingEnabled(): boolean {
  return messageTracingEnabled();
}

/**
 * Starts the OpenTelemetry SDK once per process (traces only: metrics stay on prom-client's
 * /metrics). The exporter, protocol, sampler and propagators follow the standard OTEL_* variables.
 */
export async function startTracing(
  config: Pick<OpenqConfig, 'tracing'>,
  serviceName: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<boolean> {
  if (sdk) return true;
  if (config.tracing.endpoint === null || /^(true|1)$/i.test(env.OTEL_SDK_DISABLED ?? '')) return false;
  // Loaded only when on: the SDK and its exporters are a large module tree.
  const { NodeSDK } = await import('@opentelemetry/sdk-node');
  const started = new NodeSDK({
    serviceName: env.OTEL_SERVICE_NAME?.trim() || serviceName,
    metricReaders: [],
    logRecordProcessors: [],
    instrumentations: [],
  });
  started.start();
  sdk = started;
  enableMessageTracing(true);
  return true;
}

/** Flushes the spans still buffered and stops the SDK (graceful shutdown). */
export async function stopTracing(): Promise<void> {
  const running = sdk;
  sdk = null;
  enableMessageTracing(false);
  await running?.shutdown().catch(() => undefined);
}

const httpSpans = new WeakMap<IncomingMessage, Span>();

/** A server span per HTTP request, child of the caller's `traceparent`; only while tracing is on. */
export function installHttpTracing(fastify: FastifyInstance): void {
  if (!tracingEnabled()) return;
  const tracer = trace.getTracer('openq-http');
  fastify.addHook('onRequest', (request, _reply, done) => {
    const parent = propagation.extract(ROOT_CONTEXT, request.headers);
    const span = tracer.startSpan(
      request.method,
      { kind: SpanKind.SERVER, attributes: { 'http.request.method': request.method } },
      parent,
    );
    httpSpans.set(request.raw, span);
    done();
  });
  fastify.addHook('onResponse', (request, reply, done) => {
    const span = httpSpans.get(request.raw);
    if (span) {
      const route = request.routeOptions.url ?? 'unmatched';
      span.updateName(`${request.method} ${route}`);
      span.setAttributes({
        'http.route': route,
        'http.response.status_code': reply.statusCode,
        'openq.correlation_id': String(request.id),
      });
      if (reply.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
      httpSpans.delete(request.raw);
    }
    done();
  });
}

/**
 * The trace headers an HTTP request passes on to the services (NATS request headers): its span's
 * context when tracing is on, else the caller's valid `traceparent` as it came.
 */
export function traceHeadersOf(req: IncomingMessage): Record<string, string> {
  const span = httpSpans.get(req);
  if (span) {
    const carrier: Record<string, string> = {};
    propagation.inject(trace.setSpan(ROOT_CONTEXT, span), carrier);
    return carrier;
  }
  return passThrough((name) => {
    const value = req.headers[name];
    return typeof value === 'string' ? value : undefined;
  });
}
