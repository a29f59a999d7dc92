import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { httpError, Reason } from '../http/http-error';
import { serviceTokenOf } from './credentials';
import { zoneOf } from './route-access';
import { ServiceTokenMatcher } from './service-token';

/**
 * Internal routes (`/internal/*`, the engine's door): only a matching `X-Service-Token` opens
 * them (401 `token_de_servico_invalido`); a user JWT, however privileged, does not.
 */
@Injectable()
export class ServiceTokenGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly matcher: ServiceTokenMatcher,
  ) {}

  canActivate(context: ExecutionContext): boolean {
    if (zoneOf(context, this.reflector) !== 'internal') return true;
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    if (!this.matcher.matches(serviceTokenOf(request.headers))) {
      throw httpError(401, Reason.badServiceToken, 'internal routes need a valid X-Service-Token header');
    }
    return true;
  }
}
