import { AsyncLocalStorage } from 'node:async_hooks';
import {
  context,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Span,
  type TextMapGetter,
  type Tracer,
} from '@opentelemetry/api';
import type { MsgHdrs } from 'nats';

/** Carries the correlation id on HTTP exchanges and NATS requests. */
export const CORRELATION_HEADER = 'x-correlation-id';
/** W3C trace context headers (https://www.w3.org/TR/trace-context/). */
export const TRACE_HEADERS = ['traceparent', 'tracestate'] as const;

const TRACEPARENT = /^[\da-f]{2}-(?!0{32})[\da-f]{32}-(?!0{16})[\da-f]{16}-[\da-f]{2}$/;

/** Reads one header of an incoming message; `undefined` when absent. */
export type HeaderReader = (name: string) => string | undefined;

/**
 * One unit of work (an inbound event, a request): its correlation id, which every log line and
 * every event it causes carries, and the trace context passed on to the NATS requests it makes
 * and to the outbox rows it writes.
 */
export interface MessageScope {
  correlationId: string | null;
  /** `traceparent` (and `tracestate`) to pass on; empty when the work came with none and tracing is off. */
  trace: Record<string, string>;
  /** The span of this unit of work while tracing is on. */
  span: Span | null;
}

export interface ScopeSpan {
  name: string;
  kind: 'server' | 'consumer';
  attributes?: Record<string, string | number>;
}

const scopes = new AsyncLocalStorage<MessageScope>();
let tracer: Tracer | null = null;

/**
 * Turns spans on or off. Off (the default) costs one AsyncLocalStorage frame per message: an
 * incoming `traceparent` is passed on unchanged, so a trace id still links the services' logs.
 */
export function enableMessageTracing(enabled: boolean): void {
  tracer = enabled ? trace.getTracer('openq-messaging') : null;
}

export function messageTracingEnabled(): boolean {
  return tracer !== null;
}

export function currentScope(): MessageScope | undefined {
  return scopes.getStore();
}

/** The trace headers of the current unit of work (for outbox rows). */
export function traceHeaders(): Record<string, string> {
  return { ...scopes.getStore()?.trace };
}

/** Correlation id and trace context of the current unit of work (for NATS requests). */
export function propagationHeaders(): Record<string, string> {
  const scope = scopes.getStore();
  if (!scope) return {};
  return scope.correlationId
    ? { [CORRELATION_HEADER]: scope.correlationId, ...scope.trace }
    : { ...scope.trace };
}

export function natsHeaderReader(headers: MsgHdrs | undefined): HeaderReader {
  return (name) => headers?.get(name) || undefined;
}

const readerGetter: TextMapGetter<HeaderReader> = {
  get: (read, key) => read(key),
  keys: () => [...TRACE_HEADERS],
};

/**
 * Runs `work` as one unit of work: inside a span (child of the incoming trace context) when
 * tracing is on, else with the incoming `traceparent` passed through as it came (if valid).
 */
export async function runInScope<T>(
  incoming: HeaderReader,
  correlationId: string | null,
  spec: ScopeSpan,
  work: (scope: MessageScope) => Promise<T>,
): Promise<T> {
  if (!tracer) {
    const scope: MessageScope = { correlationId, trace: passThrough(incoming), span: null };
    return scopes.run(scope, () => work(scope));
  }
  const parent = propagation.extract(ROOT_CONTEXT, incoming, readerGetter);
  const span = tracer.startSpan(
    spec.name,
    { kind: spec.kind === 'server' ? SpanKind.SERVER : SpanKind.CONSUMER, attributes: spec.attributes },
    parent,
  );
  const active = trace.setSpan(parent, span);
  const carrier: Record<string, string> = {};
  propagation.inject(active, carrier);
  const scope: MessageScope = { correlationId, trace: carrier, span };
  try {
    return await context.with(active, () => scopes.run(scope, () => work(scope)));
  } catch (error) {
    span.recordException(error instanceof Error ? error : String(error));
    span.setStatus({ code: SpanStatusCode.ERROR });
    throw error;
  } finally {
    if (scope.correlationId) span.setAttribute('openq.correlation_id', scope.correlationId);
    span.end();
  }
}

/** The caller's `traceparent` (and `tracestate`) when it is a valid W3C trace context, else nothing. */
export function passThrough(incoming: HeaderReader): Record<string, string> {
  const traceparent = incoming('traceparent');
  if (!traceparent || !TRACEPARENT.test(traceparent)) return {};
  const tracestate = incoming('tracestate');
  return tracestate ? { traceparent, tracestate } : { traceparent };
}
