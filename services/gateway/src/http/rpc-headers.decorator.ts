import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { CORRELATION_HEADER } from '@openq/platform';

export type RpcHeaders = Record<string, string>;

/** The NATS headers a request carries to the services: its correlation id and trace context. */
export const CallHeaders = createParamDecorator((_data: unknown, context: ExecutionContext): RpcHeaders => {
  const request = context.switchToHttp().getRequest<FastifyRequest>();
  const headers: RpcHeaders = { [CORRELATION_HEADER]: request.id };
  const traceparent = request.headers.traceparent;
  if (typeof traceparent === 'string') headers.traceparent = traceparent;
  return headers;
});
