import type { IncomingMessage, ServerResponse } from 'node:http';
import type { DynamicModule } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import { stdTimeFunctions, type LevelWithSilent } from 'pino';
import type { Options as PinoHttpOptions } from 'pino-http';
import { currentScope } from '@openq/messaging';
import { correlationIdOf } from './correlation';

/** Where credentials may show up in a log line; pino replaces them with `[redacted]`. */
export const REDACTED_PATHS: readonly string[] = [
  'req.headers.authorization',
  'req.headers["x-service-token"]',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  'headers.authorization',
  'headers["x-service-token"]',
  'headers.cookie',
  '*.token',
  '*.accessToken',
  '*.password',
  '*.secret',
  '*.serviceToken',
];

/**
 * [openq] issue #17 paths whose last segment is a credential: a one-tap link (`/l/<token>`).
 * The token never reaches a log line; the rest of the path does.
 */
const CREDENTIAL_PATHS = /^(\/l\/)[^/?#]+/;

/** `url` with a credential path segment replaced by `[redacted]` (and its query kept). */
export function redactUrl(url: string | undefined): string | undefined {
  return url === undefined ? undefined : url.replace(CREDENTIAL_PATHS, '$1[redacted]');
}

/** pino-http hands the standard request serializer's output on: its `url`, redacted. */
function redactRequest(req: { url?: string; params?: unknown }): unknown {
  req.url = redactUrl(req.url);
  if (req.params && typeof req.params === 'object' && 'token' in req.params)
    req.params = { ...req.params, token: '[redacted]' };
  return req;
}

/** Operability endpoints are polled constantly; their successful requests are not logged. */
const QUIET_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

/** The request path without query; middleware mounts (middie) rewrite `url`, not `originalUrl`. */
function pathOf(req: IncomingMessage): string {
  const url = (req as IncomingMessage & { originalUrl?: string }).originalUrl ?? req.url ?? '';
  return url.split('?')[0] ?? '';
}

export interface LoggingOptions {
  service: string;
  level: LevelWithSilent | string;
}

/**
 * Fields of the unit of work being handled (an inbound event, a request from another service):
 * its correlation id (the envelope's, or the caller's `x-correlation-id`) and trace id.
 */
export function messageScopeFields(): Record<string, string> {
  const scope = currentScope();
  if (!scope) return {};
  const fields: Record<string, string> = {};
  if (scope.correlationId) fields.correlationId = scope.correlationId;
  const traceId = scope.trace.traceparent?.split('-')[1];
  if (traceId) fields.traceId = traceId;
  return fields;
}

/**
 * pino-http options: JSON lines with `service` and `correlationId` (HTTP requests through
 * `customProps`, handled messages through `mixin`), credentials redacted.
 */
export function pinoHttpOptions(options: LoggingOptions): PinoHttpOptions<IncomingMessage, ServerResponse> {
  return {
    level: options.level,
    base: { service: options.service },
    timestamp: stdTimeFunctions.isoTime,
    formatters: { level: (label: string) => ({ level: label }) },
    mixin: messageScopeFields,
    redact: { paths: [...REDACTED_PATHS], censor: '[redacted]' },
    serializers: { req: redactRequest },
    genReqId: (req) => correlationIdOf(req),
    customProps: (req) => ({ correlationId: correlationIdOf(req) }),
    customLogLevel: (_req, res, error) => {
      if (error || res.statusCode >= 500) return 'error';
      if (res.statusCode >= 400) return 'warn';
      return 'info';
    },
    autoLogging: { ignore: (req) => QUIET_PATHS.has(pathOf(req)) },
  };
}

/** The Nest logger module of a service (nestjs-pino); `runService` imports it for you. */
export function createLoggerModule(options: LoggingOptions): DynamicModule {
  return LoggerModule.forRoot({ pinoHttp: pinoHttpOptions(options) });
}
