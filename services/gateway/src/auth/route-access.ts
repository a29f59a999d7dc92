import { SetMetadata, type ExecutionContext } from '@nestjs/common';
import type { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { PUBLIC_ROUTE } from '@openq/platform';
import type { Role } from './roles';

export const MIN_ROLE = 'openq:minRole';

/** The minimum role a user needs on the route's `:projectId` (SPEC §4 table). */
export const MinRole = (role: Role): ClassDecorator & MethodDecorator => SetMetadata(MIN_ROLE, role);

export const ACROSS_PROJECTS = 'openq:acrossProjects';

/**
 * [openq] issue #18 a user route that belongs to no one project (`/me/open-questions`,
 * `/me/stream`): the guard checks the token only; the handler reads the projects its `roles` claim
 * gives at least the route's `@MinRole` (`CurrentIdentity`) and never looks at any other.
 */
export const AcrossProjects = (): ClassDecorator & MethodDecorator => SetMetadata(ACROSS_PROJECTS, true);

export function isAcrossProjects(context: ExecutionContext, reflector: Reflector): boolean {
  return (
    reflector.getAllAndOverride<boolean | undefined>(ACROSS_PROJECTS, [
      context.getHandler(),
      context.getClass(),
    ]) === true
  );
}

/** Who may call a route: anyone (operability), the engine (`/internal/*`), or a user with a role. */
export type RouteZone = 'public' | 'internal' | 'user';

/**
 * Decided by the route's path first: everything under `/internal` is for the service token, even
 * if someone marks it public by mistake. `@PublicRoute()` opens a route; the rest is for users.
 */
export function zoneOf(context: ExecutionContext, reflector: Reflector): RouteZone {
  const request = context.switchToHttp().getRequest<FastifyRequest>();
  const path = request.routeOptions?.url ?? request.url;
  if (path === '/internal' || path.startsWith('/internal/')) return 'internal';
  const open = reflector.getAllAndOverride<boolean | undefined>(PUBLIC_ROUTE, [
    context.getHandler(),
    context.getClass(),
  ]);
  return open ? 'public' : 'user';
}

export function minRoleOf(context: ExecutionContext, reflector: Reflector): Role | undefined {
  return reflector.getAllAndOverride<Role | undefined>(MIN_ROLE, [context.getHandler(), context.getClass()]);
}
