import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { CORRELATION_HEADER, traceHeadersOf } from '@openq/platform';

export type RpcHeaders = Record<string, string>;

/**
 * The NATS headers a request carries to the services: its correlation id and W3C trace context
 * (the request's span when tracing is on, else the caller's valid `traceparent` as it came).
 */
export const CallHeaders = createParamDecorator((_data: unknown, context: ExecutionContext): RpcHeaders => {
  const request = context.switchToHttp().getRequest<FastifyRequest>();
  return { [CORRELATION_HEADER]: String(request.id), ...traceHeadersOf(request.raw) };
});
