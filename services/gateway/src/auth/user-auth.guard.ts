import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { RateLimits } from '../http/rate-limits';
import { isId } from '@openq/contracts';
import { httpError, Reason } from '../http/http-error';
import { AUTH_COOKIE, cookieValue, userTokenOf } from './credentials';
import { JwtRejected, JwtVerifier, KeysUnavailable } from './jwt-verifier';
import { isAcrossProjects, minRoleOf, zoneOf } from './route-access';
import { roleAtLeast, type AuthenticatedUser, type Role, type UserIdentity } from './roles';

export type RequestWithUser = FastifyRequest & {
  user?: AuthenticatedUser;
  /** [openq] issue #18 the caller of an `@AcrossProjects()` route (no project checked). */
  identity?: UserIdentity;
};

/**
 * User routes (everything outside `/internal` and not public): a valid JWT (401
 * `nao_autenticado`), a well-formed `:projectId` (400 `parametro_invalido`), a role on that
 * project (403 `sem_papel_no_projeto`) at least the route's `@MinRole` (403 `papel_insuficiente`).
 * Only the JWT counts here: an `X-Service-Token` opens nothing.
 */
@Injectable()
export class UserAuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly verifier: JwtVerifier,
    private readonly limits: RateLimits,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const zone = zoneOf(context, this.reflector);
    const request = context.switchToHttp().getRequest<RequestWithUser>();
    const reply = context.switchToHttp().getResponse<FastifyReply>();
    // A public route judges no credential: whatever reaches it costs its address (issue #27).
    if (zone === 'public') await this.limits.checkUnauthenticated(request, reply);
    if (zone !== 'user') return true;
    const minimum = minRoleOf(context, this.reflector);
    if (!minimum) throw new Error(`route ${request.routeOptions?.url ?? request.url} declares no @MinRole`);
    const params = (request.params ?? {}) as Record<string, string | undefined>;
    refuseCrossSiteWrite(request);
    let identity: UserIdentity;
    try {
      identity = await authenticateUser(this.verifier, userTokenOf(request.headers));
    } catch (error) {
      // Only a request that fails to authenticate meets the failed-authentication limit.
      if (isUnauthenticated(error)) await this.limits.checkFailedAuthentication(request, reply);
      throw error;
    }
    // Authenticated: the caller's own budget, never its address's (issue #27).
    await this.limits.checkUser(request, reply, identity.id);
    if (isAcrossProjects(context, this.reflector)) {
      request.identity = identity;
      return true;
    }
    request.user = authorizeIdentity(identity, params.projectId, minimum);
    return true;
  }
}

function isUnauthenticated(error: unknown): boolean {
  return (error as { getStatus?: () => number } | null)?.getStatus?.() === 401;
}

/** The user guard's decision, as a function: who is calling, and may they use this project route. */
export async function authorizeUser(
  verifier: JwtVerifier,
  token: string | null,
  projectId: string | undefined,
  minimum: Role,
): Promise<AuthenticatedUser> {
  return authorizeIdentity(await authenticateUser(verifier, token), projectId, minimum);
}

/** May this caller use this project route: a well-formed project, a role on it, at least `minimum`. */
export function authorizeIdentity(
  identity: UserIdentity,
  projectId: string | undefined,
  minimum: Role,
): AuthenticatedUser {
  if (!isId(projectId))
    throw httpError(400, Reason.badParameter, 'projectId must match ^[A-Za-z0-9_-]{1,64}$');
  const role = identity.roles.get(projectId);
  if (!role) throw httpError(403, Reason.noRoleOnProject, `you have no role on project ${projectId}`);
  requireRole(role, minimum, projectId);
  return { ...identity, projectId, role };
}

/** Who holds this token: 401 `nao_autenticado` without a valid one, 503 while the keys are unavailable. */
export async function authenticateUser(verifier: JwtVerifier, token: string | null): Promise<UserIdentity> {
  if (!token)
    throw httpError(
      401,
      Reason.notAuthenticated,
      'authentication required: send Authorization: Bearer <token>',
    );
  let identity;
  try {
    identity = await verifier.verify(token);
  } catch (error) {
    if (error instanceof JwtRejected)
      throw httpError(401, Reason.notAuthenticated, `authentication failed: ${error.message}`);
    if (error instanceof KeysUnavailable)
      throw httpError(503, Reason.serviceUnavailable, 'the token keys are unavailable right now; try again');
    throw error;
  }
  return identity;
}

/**
 * 403 `papel_insuficiente` below `minimum`: the guard's check against the route's `@MinRole`, and
 * a handler's when what the body asks needs more than the route (§11.1 a resume with override).
 */
export function requireRole(role: Role, minimum: Role, projectId: string): void {
  if (roleAtLeast(role, minimum)) return;
  throw httpError(
    403,
    Reason.roleTooLow,
    `this needs the ${minimum} role on project ${projectId}; you are ${role}`,
  );
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The header the inbox sends with every write (`api.js`); a page of another origin cannot. */
export const CSRF_HEADER = 'x-openq-csrf';

/**
 * A browser sends the `openq_token` cookie with any request, also one a foreign page makes — a
 * plain HTML form, or a bodyless `fetch` in `no-cors` mode from a sibling origin (another port
 * on the host, a sibling subdomain: same-site, so even a SameSite=Lax cookie goes along). A write
 * authenticated by the cookie must therefore prove it came from the inbox: it carries the
 * `X-Openq-Csrf` header, which a page of another origin can only send after a CORS preflight
 * that openq never grants, and — where the browser says where it came from — `Sec-Fetch-Site`
 * is `same-origin`. A form or text body is refused too. Requests with an `Authorization` header
 * are not exposed: browsers never add it on their own.
 */
export function refuseCrossSiteWrite(request: Pick<FastifyRequest, 'method' | 'headers'>): void {
  if (SAFE_METHODS.has((request.method ?? 'GET').toUpperCase()) || request.headers.authorization) return;
  // No session cookie: nothing a foreign page could borrow; authentication answers (401).
  const cookie = request.headers.cookie;
  if (typeof cookie !== 'string' || cookieValue(cookie, AUTH_COOKIE) === null) return;
  const type = String(request.headers['content-type'] ?? '')
    .split(';')[0]!
    .trim()
    .toLowerCase();
  const site = request.headers['sec-fetch-site'];
  const fromInbox =
    (type === 'application/json' || type === '') &&
    Boolean(request.headers[CSRF_HEADER]) &&
    (site === undefined || site === 'same-origin' || site === 'none');
  if (fromInbox) return;
  throw httpError(
    403,
    'origem_nao_confiavel',
    `a write authenticated by the session cookie must come from the inbox: send the ${CSRF_HEADER} header and a JSON body (or none), from the same origin`,
  );
}
