import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { RateLimits } from '../http/rate-limits';
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
    private readonly limits: RateLimits,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (zoneOf(context, this.reflector) !== 'internal') return true;
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const reply = context.switchToHttp().getResponse<FastifyReply>();
    const token = serviceTokenOf(request.headers);
    if (!token || !this.matcher.matches(token)) {
      // Only a request that fails to authenticate meets the failed-authentication limit (issue #27).
      await this.limits.checkFailedAuthentication(request, reply);
      throw httpError(401, Reason.badServiceToken, 'internal routes need a valid X-Service-Token header');
    }
    // Authenticated: the token's own budget, never its address's.
    await this.limits.checkService(request, reply, token);
    return true;
  }
}
