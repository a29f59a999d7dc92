import { HttpException } from '@nestjs/common';
import type { ErrorBody } from '@openq/contracts';

/** Stable reason codes the gateway itself produces (services bring their own). */
export const Reason = {
  notAuthenticated: 'nao_autenticado',
  noRoleOnProject: 'sem_papel_no_projeto',
  roleTooLow: 'papel_insuficiente',
  badServiceToken: 'token_de_servico_invalido',
  badParameter: 'parametro_invalido',
  badBody: 'corpo_invalido',
  bodyTooLarge: 'corpo_grande_demais',
  unsupportedMediaType: 'tipo_de_conteudo_nao_suportado',
  routeNotFound: 'rota_nao_encontrada',
  methodNotAllowed: 'metodo_nao_permitido',
  serviceUnavailable: 'servico_indisponivel',
  invalidReply: 'resposta_invalida',
  internal: 'erro_interno',
} as const;

/** An HTTP error whose body is exactly `{ statusCode, reason, message }` (plus `extra` fields). */
export function httpError(
  statusCode: number,
  reason: string,
  message: string,
  extra: Record<string, unknown> = {},
): HttpException {
  const body: ErrorBody & Record<string, unknown> = { ...extra, statusCode, reason, message };
  return new HttpException(body, statusCode);
}
