import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { Logger as NestLogger, Module, type DynamicModule, type Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { Logger as PinoNestLogger } from 'nestjs-pino';
import { InfrastructureUnavailableError, isDbAuthFailure } from '@openq/persistence';
import { ConfigError } from './env';
import { CORRELATION_HEADER, correlationIdOf } from './correlation';
import { AllExceptionsFilter, DEFAULT_BODY_LIMIT_BYTES, FrameworkReason } from './http-errors';
import { installHttpMetrics } from './http-metrics';
import { createLoggerModule } from './logging';
import { isNatsUnreachable } from './nats';
import { closeOnSignals, forgetApp } from './shutdown';
import { installHttpTracing } from './tracing';

export interface RunServiceOptions {
  /** `gateway`, `questions`, … : the `service` field of every log line and metric. */
  name: string;
  module: Type<unknown> | DynamicModule;
  /** 0 picks a free port (tests); read the real one from `app.getHttpServer().address()`. */
  httpPort: number;
  /** The variable that sets `httpPort`, named when the port is taken (e.g. `PORT`). */
  portVariable?: string;
  host?: string;
  logLevel?: string;
  bodyLimitBytes?: number;
  /** Longest path parameter (Fastify's default 100); longer → 414. The gateway's link tokens need more. */
  maxParamLength?: number;
  /**
   * The proxies whose `X-Forwarded-For` names the client (addresses or CIDRs; Fastify's
   * `trustProxy`). Empty or absent: the peer is the client.
   */
  trustProxy?: readonly string[];
  shutdownTimeoutMs?: number;
  /** Runs after the app is created and before it listens (global pipes, OpenAPI, …). */
  configure?: (app: NestFastifyApplication) => void | Promise<void>;
  /** Default true: a failed start prints one line and exits 1. False: the error is thrown. */
  exitOnFailure?: boolean;
  /** Default true: SIGTERM/SIGINT close the app gracefully and end the process. */
  handleSignals?: boolean;
  /** Keep each JSON or form body's bytes as `request.rawBody` (a signature over them: Slack's callbacks). */
  rawBody?: boolean;
}

@Module({})
class ServiceRootModule {}

/**
 * Creates, configures and starts one service's Nest app on Fastify (JSON logs, body limit,
 * correlation ids, HTTP metrics, graceful shutdown) and returns it, so a laptop-mode process can
 * run several services side by side. A missing NATS/PostgreSQL or a bad configuration ends the
 * process with one line saying what to do, never a stack trace.
 */
export async function runService(options: RunServiceOptions): Promise<NestFastifyApplication> {
  try {
    return await startService(options);
  } catch (error) {
    if (options.exitOnFailure === false) throw error;
    return exitOnStartupFailure(options.name, error, options);
  }
}

async function startService(options: RunServiceOptions): Promise<NestFastifyApplication> {
  const adapter = new FastifyAdapter({
    bodyLimit: options.bodyLimitBytes ?? DEFAULT_BODY_LIMIT_BYTES,
    routerOptions: { maxParamLength: options.maxParamLength ?? 100 },
    ...(options.trustProxy && options.trustProxy.length > 0 ? { trustProxy: [...options.trustProxy] } : {}),
    genReqId: (req: IncomingMessage) => correlationIdOf(req),
    logger: false,
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    frameworkErrors: answerFrameworkError,
    clientErrorHandler: answerClientError,
  });
  const fastify = adapter.getInstance();
  installHttpMetrics(fastify, options.name);
  installHttpTracing(fastify);
  // A keep-alive connection busy with a request when the server closes would otherwise stay open
  // after its response for Fastify's keepAliveTimeout (72 s), holding the shutdown past its limit:
  // once closing, every response says `Connection: close`.
  let closing = false;
  fastify.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  fastify.addHook('onSend', (request, reply, payload, done) => {
    reply.header(CORRELATION_HEADER, request.id);
    if (closing) reply.header('connection', 'close');
    done(null, payload);
  });

  const root: DynamicModule = {
    module: ServiceRootModule,
    imports: [
      createLoggerModule({ service: options.name, level: options.logLevel ?? 'info' }),
      options.module,
    ],
  };
  const app = await NestFactory.create<NestFastifyApplication>(root, adapter, {
    bufferLogs: true,
    autoFlushLogs: false,
    abortOnError: false,
    rawBody: options.rawBody === true,
  });
  fastify.addHook('onClose', (_instance, done) => {
    forgetApp(app);
    done();
  });
  try {
    app.useLogger(app.get(PinoNestLogger));
    app.flushLogs();
    // Every error answered over HTTP, health ports included, has the contract's body (SPEC §4).
    app.useGlobalFilters(new AllExceptionsFilter());
    await options.configure?.(app);
    await app.listen({ port: options.httpPort, host: options.host ?? '0.0.0.0' });
  } catch (error) {
    await app.close().catch(() => undefined);
    throw error;
  }
  if (options.handleSignals !== false) closeOnSignals(options.name, app, options.shutdownTimeoutMs ?? 25_000);
  return app;
}

/**
 * Errors Fastify answers before any route runs (a URL with broken percent-encoding, a path
 * parameter over its length limit) get the body every error has (SPEC §4), not Fastify's own.
 */
function answerFrameworkError(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  const statusCode =
    error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 400;
  const message =
    error.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? 'a path parameter is too long'
      : 'the URL is not valid (broken percent-encoding?)';
  void reply
    .code(statusCode)
    .header('content-type', 'application/json; charset=utf-8')
    .send(JSON.stringify({ statusCode, reason: FrameworkReason.badParameter, message }));
}

/**
 * Errors Node's HTTP parser raises before Fastify sees a request (a URL or headers over the
 * 16 KiB limit, a malformed request line) also get the contract's body instead of Fastify's own.
 */
function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
  const statusCode = tooLarge ? 431 : 400;
  const body = JSON.stringify({
    statusCode,
    reason: tooLarge ? FrameworkReason.headersTooLarge : FrameworkReason.badBody,
    message: tooLarge
      ? 'the URL and headers together are larger than 16 KiB'
      : 'the request is not valid HTTP',
  });
  socket.end(
    `HTTP/1.1 ${statusCode} ${tooLarge ? 'Request Header Fields Too Large' : 'Bad Request'}\r\n` +
      `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
      `Connection: close\r\n\r\n${body}`,
  );
}

/** JetStream API errors of a stream that asks for more replicas than there are servers. */
const JETSTREAM_PLACEMENT_ERRORS = new Set([
  10074 /* replicas > 1 not supported in non-clustered mode */, 10023 /* insufficient resources */,
]);

/** The one line for a start failure whose cure is known (start X, set Y), else `null`. */
export function describeStartupFailure(
  error: unknown,
  options: Pick<RunServiceOptions, 'httpPort' | 'portVariable'> = { httpPort: 0 },
): string | null {
  if (error instanceof InfrastructureUnavailableError || error instanceof ConfigError) return error.message;
  const name = (error as { name?: unknown } | null)?.name;
  if ((name === 'InfrastructureUnavailableError' || name === 'ConfigError') && error instanceof Error)
    return error.message;
  if (isDbAuthFailure(error)) {
    // pg's own words name the user, never the password.
    const said = error instanceof Error ? error.message.split('\n')[0] : 'authentication failed';
    return `PostgreSQL refused the login of DATABASE_URL (${said}) — check the user and password in DATABASE_URL.`;
  }
  if (isNatsUnreachable(error))
    return 'NATS is not answering — start it (e.g. `nats-server -js`) or set NATS_URL.';
  const jetStream = (error as { api_error?: { err_code?: number; description?: string } } | null)?.api_error;
  if (jetStream && JETSTREAM_PLACEMENT_ERRORS.has(jetStream.err_code ?? 0)) {
    return `JetStream cannot place the streams (${jetStream.description}) — OPENQ_STREAM_REPLICAS must not exceed the number of NATS servers (1 for a single server).`;
  }
  if ((error as { code?: unknown } | null)?.code === 'EADDRINUSE') {
    const variable = options.portVariable ? ` or set ${options.portVariable}` : '';
    return `port ${options.httpPort} is already in use — stop what holds it${variable}.`;
  }
  return null;
}

/** Prints why the service could not start (one line when the cure is known) and exits 1. */
export function exitOnStartupFailure(
  name: string,
  error: unknown,
  options?: Pick<RunServiceOptions, 'httpPort' | 'portVariable'>,
): never {
  const line = describeStartupFailure(error, options);
  if (line) {
    NestLogger.detachBuffer();
    console.error(`${name}: ${line}`);
  } else {
    NestLogger.flush();
    console.error(`${name} failed to start:`, error);
  }
  process.exit(1);
}
