import { HttpException } from '@nestjs/common';
import type { ErrorBody, RefusalReason } from '@openq/contracts';
import { FrameworkReason } from '@openq/platform';

/** Stable reason codes the gateway itself produces (services bring their own). */
export const Reason = {
  ...FrameworkReason,
  noRoleOnProject: 'sem_papel_no_projeto',
  roleTooLow: 'papel_insuficiente',
  badServiceToken: 'token_de_servico_invalido',
  invalidReply: 'resposta_invalida',
} as const satisfies Record<string, RefusalReason>;

/** An HTTP error whose body is exactly `{ statusCode, reason, message }` (plus `extra` fields). */
export function httpError(
  statusCode: number,
  reason: RefusalReason,
  message: string,
  extra: Record<string, unknown> = {},
): HttpException {
  return forwardedHttpError(statusCode, reason, message, extra);
}

/**
 * A service's refusal passed on as it came: its reason is a string on the wire (every service of
 * this build types its own against the catalog; a reply may come from another build).
 */
export function forwardedHttpError(
  statusCode: number,
  reason: string,
  message: string,
  extra: Record<string, unknown> = {},
): HttpException {
  const body: ErrorBody & Record<string, unknown> = { ...extra, statusCode, reason, message };
  return new HttpException(body, statusCode);
}
