import { Catch, HttpException, Logger, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ErrorBody, RefusalReason } from '@openq/contracts';

/** SPEC §4: bodies are size-limited to 64 KiB. */
export const DEFAULT_BODY_LIMIT_BYTES = 64 * 1024;

/** The reasons of errors the HTTP framework itself raises, in every service. */
export const FrameworkReason = {
  badBody: 'corpo_invalido',
  notAuthenticated: 'nao_autenticado',
  badParameter: 'parametro_invalido',
  bodyTooLarge: 'corpo_grande_demais',
  headersTooLarge: 'cabecalhos_grandes_demais',
  unsupportedMediaType: 'tipo_de_conteudo_nao_suportado',
  routeNotFound: 'rota_nao_encontrada',
  methodNotAllowed: 'metodo_nao_permitido',
  serviceUnavailable: 'servico_indisponivel',
  internal: 'erro_interno',
} as const satisfies Record<string, RefusalReason>;
const Reason = FrameworkReason;

type ErrorResponse = ErrorBody & Record<string, unknown>;

/** What a bare status means when nothing more specific was said (framework and Fastify errors). */
const REASON_BY_STATUS: Readonly<Record<number, string>> = {
  400: Reason.badBody,
  401: Reason.notAuthenticated,
  404: Reason.routeNotFound,
  405: Reason.methodNotAllowed,
  413: Reason.bodyTooLarge,
  415: Reason.unsupportedMediaType,
  503: Reason.serviceUnavailable,
};

const MESSAGE_BY_REASON: Readonly<Record<string, string>> = {
  [Reason.bodyTooLarge]: `the request body is larger than ${DEFAULT_BODY_LIMIT_BYTES / 1024} KiB`,
  [Reason.unsupportedMediaType]: 'send the body as application/json',
};

/**
 * Every error a service answers over HTTP has the body `{ statusCode, reason, message }` (SPEC §4):
 * our own errors keep their reason, framework errors get one from their status (an unknown route
 * is `rota_nao_encontrada`, a body over 64 KiB `corpo_grande_demais`, broken JSON
 * `corpo_invalido`), and anything unexpected is a 500 `erro_interno` that reveals nothing but
 * the correlation id, while the log keeps the details.
 */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger('HttpErrors');

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const reply = http.getResponse<FastifyReply>();
    const request = http.getRequest<FastifyRequest>();
    const body = errorBodyOf(exception, request?.id);
    if (body.reason === Reason.internal) {
      this.logger.error(
        { err: exception, correlationId: request?.id, route: request?.routeOptions?.url },
        'unexpected error',
      );
    }
    if (reply.sent) return;
    // A refusal that says when to come back (`retryAfterSeconds`) says it in the header too.
    if (typeof body.retryAfterSeconds === 'number')
      void reply.header('retry-after', String(body.retryAfterSeconds));
    void reply.status(body.statusCode).header('content-type', 'application/json; charset=utf-8').send(body);
  }
}

/** The error body for anything thrown while handling a request. */
export function errorBodyOf(exception: unknown, correlationId?: string): ErrorResponse {
  if (exception instanceof HttpException) {
    const statusCode = exception.getStatus();
    const response = exception.getResponse();
    if (isOurs(response))
      return { ...response, statusCode, reason: response.reason, message: response.message };
    if (statusCode >= 500 && statusCode !== 503) return internal(correlationId);
    const reason =
      REASON_BY_STATUS[statusCode] ?? (statusCode >= 500 ? Reason.internal : 'requisicao_invalida');
    return { statusCode, reason, message: MESSAGE_BY_REASON[reason] ?? messageOf(response) };
  }
  const status = (exception as { statusCode?: unknown } | null)?.statusCode;
  if (exception instanceof Error && typeof status === 'number' && status >= 400 && status < 500) {
    // A Fastify error that reached us unmapped (its message is written for clients).
    const reason = REASON_BY_STATUS[status] ?? 'requisicao_invalida';
    return { statusCode: status, reason, message: MESSAGE_BY_REASON[reason] ?? exception.message };
  }
  return internal(correlationId);
}

function internal(correlationId?: string): ErrorResponse {
  const ref = correlationId ? ` (correlation id ${correlationId})` : '';
  return { statusCode: 500, reason: Reason.internal, message: `internal error${ref}` };
}

function isOurs(response: unknown): response is ErrorResponse {
  const r = response as Partial<ErrorBody> | null;
  return typeof r === 'object' && r !== null && typeof r.reason === 'string' && typeof r.message === 'string';
}

function messageOf(response: unknown): string {
  if (typeof response === 'string') return response;
  const message = (response as { message?: unknown } | null)?.message;
  if (typeof message === 'string') return message;
  if (Array.isArray(message)) return message.map(String).join('; ');
  return 'request refused';
}
