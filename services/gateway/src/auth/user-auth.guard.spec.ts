import { Controller, Get, HttpException, Post, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { PublicRoute } from '@openq/platform';
import { claimsFor, signJwt } from '../testing/sign-jwt';
import { JwtVerifier } from './jwt-verifier';
import { secretKeySource } from './key-sources';
import { MinRole } from './route-access';
import { ServiceTokenMatcher } from './service-token';
import { ServiceTokenGuard } from './service-token.guard';
import { loadRateLimitSettings } from '../http/rate-limit.config';
import { RateLimits } from '../http/rate-limits';
import { UserAuthGuard, authorizeUser } from './user-auth.guard';

const SECRET = 'k'.repeat(40);
const SERVICE_TOKEN = 't'.repeat(40);
const verifier = new JwtVerifier(secretKeySource(SECRET));
const key = { alg: 'HS256', secret: SECRET } as const;
const token = (roles: Record<string, string>, extra: Record<string, unknown> = {}) =>
  signJwt({ ...claimsFor('u1', roles), ...extra }, key);
let developerOnP1: string;

beforeAll(async () => {
  developerOnP1 = await token({ p1: 'developer' });
});

async function outcome(run: () => Promise<unknown> | unknown): Promise<string> {
  try {
    await run();
    return 'allowed';
  } catch (error) {
    if (!(error instanceof HttpException)) throw error;
    const body = error.getResponse() as { statusCode: number; reason: string };
    expect(body.statusCode).toBe(error.getStatus());
    return `${body.statusCode} ${body.reason}`;
  }
}

describe('authorizeUser (the user guard decision)', () => {
  it.each<
    [
      string,
      () => Promise<string | null> | string | null,
      string,
      'viewer' | 'developer' | 'maintainer',
      string,
    ]
  >([
    ['no token', () => null, 'p1', 'viewer', '401 nao_autenticado'],
    ['a malformed token', () => 'not-a-jwt', 'p1', 'viewer', '401 nao_autenticado'],
    [
      'an expired token',
      () => token({ p1: 'owner' }, { exp: Math.floor(Date.now() / 1000) - 3600 }),
      'p1',
      'viewer',
      '401 nao_autenticado',
    ],
    [
      'a wrong signature',
      () => signJwt(claimsFor('u1', { p1: 'owner' }), { alg: 'HS256', secret: 'z'.repeat(40) }),
      'p1',
      'viewer',
      '401 nao_autenticado',
    ],
    ['a role on another project only', () => developerOnP1, 'p2', 'viewer', '403 sem_papel_no_projeto'],
    ['a role below the minimum', () => developerOnP1, 'p1', 'maintainer', '403 papel_insuficiente'],
    ['a malformed projectId', () => developerOnP1, 'p1.>', 'viewer', '400 parametro_invalido'],
    ['exactly the minimum role', () => developerOnP1, 'p1', 'developer', 'allowed'],
    ['a role above the minimum', () => token({ p1: 'owner' }), 'p1', 'maintainer', 'allowed'],
  ])('%s → %s', async (_what, presented, projectId, minimum, expected) => {
    const credential = await presented();
    expect(await outcome(() => authorizeUser(verifier, credential, projectId, minimum))).toBe(expected);
  });

  it('hands the controllers who is calling and with which role', async () => {
    const user = await authorizeUser(verifier, developerOnP1, 'p1', 'viewer');
    expect(user).toMatchObject({ id: 'u1', projectId: 'p1', role: 'developer' });
  });
});

@Controller('projects/:projectId/things')
class UserRoutes {
  @Get()
  @MinRole('viewer')
  read(): void {}

  @Post()
  unguarded(): void {}
}

@Controller('internal/projects/:projectId/things')
class InternalRoutes {
  @Get()
  read(): void {}
}

@PublicRoute()
@Controller()
class OpenRoutes {
  @Get('healthz')
  health(): void {}
}

interface FakeRequest {
  headers: Record<string, string>;
  params: Record<string, string>;
  routeOptions: { url: string };
  url: string;
  user?: unknown;
}

function contextFor(
  cls: new () => object,
  method: string,
  url: string,
  headers: Record<string, string>,
  params: Record<string, string> = { projectId: 'p1' },
) {
  const request: FakeRequest = { headers, params, routeOptions: { url }, url };
  const handler = (cls.prototype as Record<string, () => void>)[method]!;
  const context = {
    getHandler: () => handler,
    getClass: () => cls,
    switchToHttp: () => ({ getRequest: () => request, getResponse: () => undefined }),
  } as unknown as ExecutionContext;
  return { context, request };
}

describe('the two guards together', () => {
  const reflector = new Reflector();
  // Not installed on a server: it counts nothing (the limits have their own integration test).
  const limits = new RateLimits(loadRateLimitSettings({}));
  const userGuard = new UserAuthGuard(reflector, verifier, limits);
  const serviceGuard = new ServiceTokenGuard(reflector, new ServiceTokenMatcher([SERVICE_TOKEN]), limits);
  const both = async (context: ExecutionContext) => {
    await serviceGuard.canActivate(context);
    await userGuard.canActivate(context);
  };
  const userRoute = (headers: Record<string, string>) =>
    contextFor(UserRoutes, 'read', '/projects/:projectId/things', headers);
  const internalRoute = (headers: Record<string, string>) =>
    contextFor(InternalRoutes, 'read', '/internal/projects/:projectId/things', headers);

  it('lets a user with a role through a user route and records who it is', async () => {
    const { context, request } = userRoute({ authorization: `Bearer ${developerOnP1}` });
    expect(await outcome(() => both(context))).toBe('allowed');
    expect(request.user).toMatchObject({ id: 'u1', role: 'developer' });
  });

  it('reads the token from the openq_token cookie too', async () => {
    expect(
      await outcome(() => both(userRoute({ cookie: `theme=dark; openq_token=${developerOnP1}` }).context)),
    ).toBe('allowed');
  });

  it('never opens a user route with the service token', async () => {
    expect(await outcome(() => both(userRoute({ 'x-service-token': SERVICE_TOKEN }).context))).toBe(
      '401 nao_autenticado',
    );
  });

  it('opens an internal route with the service token only', async () => {
    expect(await outcome(() => both(internalRoute({ 'x-service-token': SERVICE_TOKEN }).context))).toBe(
      'allowed',
    );
    expect(await outcome(() => both(internalRoute({ 'x-service-token': 'wrong' }).context))).toBe(
      '401 token_de_servico_invalido',
    );
    expect(await outcome(() => both(internalRoute({}).context))).toBe('401 token_de_servico_invalido');
  });

  it('never opens an internal route with a user JWT, however privileged', async () => {
    const owner = await token({ p1: 'owner' });
    expect(await outcome(() => both(internalRoute({ authorization: `Bearer ${owner}` }).context))).toBe(
      '401 token_de_servico_invalido',
    );
  });

  it('asks nothing of public routes', async () => {
    expect(await outcome(() => both(contextFor(OpenRoutes, 'health', '/healthz', {}).context))).toBe(
      'allowed',
    );
  });

  it('refuses to serve a user route that declares no minimum role', async () => {
    const { context } = contextFor(UserRoutes, 'unguarded', '/projects/:projectId/things', {
      authorization: `Bearer ${developerOnP1}`,
    });
    await expect(both(context)).rejects.toThrow(/declares no @MinRole/);
  });
});
