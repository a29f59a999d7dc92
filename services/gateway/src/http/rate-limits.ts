import { createHash } from 'node:crypto';
import { Inject, Injectable, Optional } from '@nestjs/common';
import fastifyRateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { NatsConnection } from 'nats';
import { Counter, register } from 'prom-client';
import { EdgeReason } from '@openq/contracts';
import { serviceTokenOf, userTokenOf } from '../auth/credentials';
import { httpError } from './http-error';
import { NatsCounters, natsRateLimitStore } from './nats-rate-limit-store';
import type { RateLimitSettings } from './rate-limit.config';

export const RATE_LIMIT_SETTINGS = Symbol('openq:rateLimitSettings');
export const RATE_LIMIT_NATS = Symbol('openq:rateLimitNats');

/** The reason of every 429 of a rate limit (SPEC §11.6). */
export const TOO_MANY_REQUESTS = EdgeReason.tooManyRequests;

export type LimitKind = 'address' | 'user' | 'service' | 'auth_failures';

type Check = (
  req: FastifyRequest,
  options?: { increment?: boolean },
) => Promise<
  { isAllowed: true } | { isAllowed: false; isExceeded: boolean; remaining: number; ttlInSeconds: number }
>;

const refused =
  (register.getSingleMetric('openq_gateway_rate_limited_total') as Counter<'limit'> | undefined) ??
  new Counter({
    name: 'openq_gateway_rate_limited_total',
    help: 'Requests refused with 429 by a rate limit, by limit',
    labelNames: ['limit'],
  });

/** Routes no limit applies to: probes and scrapes come from the platform, often all from one address. */
const UNLIMITED = new Set(['/healthz', '/readyz', '/metrics']);

/** What the limits note on a request as it goes: whether the address budget has counted it, who it is. */
type Tracked = FastifyRequest & { rateLimitKey?: string; addressCounted?: boolean; authenticated?: boolean };

/**
 * Does the request present a credential (a bearer token, the session cookie, a service token)?
 * Only such a request can authenticate; the guards judge it once they know whether it does.
 */
function presentsCredential(request: FastifyRequest): boolean {
  return userTokenOf(request.headers) !== null || serviceTokenOf(request.headers) !== null;
}

/**
 * The gateway's rate limits, on `@fastify/rate-limit` (its counting, its store — in memory, or
 * shared by every replica through a JetStream key-value bucket). Issue #27 (SPEC §12.2):
 *
 * - a caller who authenticates is limited by its own budget only — per signed-in user on the user
 *   routes, per service token on `/internal` (the guards, once the caller is known) — never by
 *   what others do from the same address (one ingress, one office NAT);
 * - the per-address budget guards the traffic that does not authenticate: a request with no
 *   credential is counted (and refused) as it arrives; one whose credential fails, when the guard
 *   says so; one with a credential on a public route, there too;
 * - failed authentications (401) per address have a stricter budget; past it a request that
 *   fails to authenticate is refused with 429 instead of 401 — one that authenticates never is.
 *
 * The address is the client's as Fastify sees it: the peer, or `X-Forwarded-For` through the
 * proxies of `GATEWAY_TRUSTED_PROXIES` only. A refusal is 429 `muitas_requisicoes` with
 * `Retry-After`. A limit set to 0 is off.
 */
@Injectable()
export class RateLimits {
  private readonly checks = new Map<LimitKind, Check>();

  constructor(
    @Inject(RATE_LIMIT_SETTINGS) private readonly settings: RateLimitSettings,
    @Optional() @Inject(RATE_LIMIT_NATS) private readonly nc?: NatsConnection,
  ) {}

  /** Registers the plugin and the address / failed-authentication hooks (before the app listens). */
  async install(fastify: FastifyInstance): Promise<void> {
    const s = this.settings;
    const store =
      s.store === 'nats' && this.nc ? natsRateLimitStore(new NatsCounters(this.nc, s.windowMs)) : undefined;
    await fastify.register(fastifyRateLimit, {
      global: false,
      ...(store ? { store: store as never } : {}),
      // Fail open: a limit that cannot count (the bucket unreachable) must not take the API down.
      skipOnError: true,
    });
    const make = (kind: LimitKind, max: number, key: (req: FastifyRequest) => string): void => {
      if (max <= 0) return;
      this.checks.set(
        kind,
        fastify.createRateLimit({
          max,
          timeWindow: s.windowMs,
          keyGenerator: (req) => `${kind}:${key(req)}`,
        }) as Check,
      );
    };
    make('address', s.perAddress, (req) => req.ip);
    make('auth_failures', s.authFailures, (req) => req.ip);
    make('user', s.perUser, (req) => (req as FastifyRequest & { rateLimitKey?: string }).rateLimitKey ?? '');
    make(
      'service',
      s.perService,
      (req) => (req as FastifyRequest & { rateLimitKey?: string }).rateLimitKey ?? '',
    );

    // Hooks run before Nest's exception filters: a refusal is sent here, in the contract's body.
    fastify.addHook('onRequest', async (request, reply) => {
      if (UNLIMITED.has(request.url.split('?')[0]!)) return;
      // A credential is judged by the guard: counted against the address only if it fails.
      if (presentsCredential(request)) return;
      (request as Tracked).addressCounted = true;
      const refusal = await this.refusal('address', request);
      if (refusal) return sendRefusal(reply, refusal);
    });
    fastify.addHook('onResponse', async (request, reply) => {
      if (UNLIMITED.has(request.url.split('?')[0]!)) return;
      const tracked = request as Tracked;
      if (reply.statusCode === 401)
        await this.checks
          .get('auth_failures')?.(request)
          .catch(() => undefined);
      // A credential no guard judged (an unknown route, a body refused before the guards):
      // the request did not authenticate, so it costs its address.
      if (!tracked.addressCounted && !tracked.authenticated)
        await this.checks
          .get('address')?.(request)
          .catch(() => undefined);
    });
  }

  /**
   * A request that failed to authenticate (the guards, before they answer 401): past the
   * address's budget of failed authentications, or past its budget of unauthenticated requests,
   * 429 instead. Never called for a request that authenticates.
   */
  async checkFailedAuthentication(request: FastifyRequest, reply: FastifyReply | undefined): Promise<void> {
    const tracked = request as Tracked;
    let refusal = await this.refusal('auth_failures', request, { increment: false });
    if (!refusal && !tracked.addressCounted) {
      tracked.addressCounted = true;
      refusal = await this.refusal('address', request);
    }
    if (refusal) throwRefusal(refusal, reply);
  }

  /** A public route reached with a credential (not judged there): the address's budget. */
  async checkUnauthenticated(request: FastifyRequest, reply: FastifyReply | undefined): Promise<void> {
    const tracked = request as Tracked;
    if (tracked.addressCounted || UNLIMITED.has(request.url.split('?')[0]!)) return;
    tracked.addressCounted = true;
    const refusal = await this.refusal('address', request);
    if (refusal) throwRefusal(refusal, reply);
  }

  /** The signed-in user's budget (the user guard, after the token is verified). */
  async checkUser(request: FastifyRequest, reply: FastifyReply | undefined, userId: string): Promise<void> {
    (request as Tracked).rateLimitKey = userId;
    (request as Tracked).authenticated = true;
    await this.enforce('user', request, reply);
  }

  /** The service token's budget (the service-token guard, after the token matched). */
  async checkService(request: FastifyRequest, reply: FastifyReply | undefined, token: string): Promise<void> {
    (request as Tracked).authenticated = true;
    (request as Tracked).rateLimitKey = createHash('sha256').update(token).digest('hex').slice(0, 32);
    await this.enforce('service', request, reply);
  }

  private async enforce(
    kind: LimitKind,
    request: FastifyRequest,
    reply: FastifyReply | undefined,
  ): Promise<void> {
    const refusal = await this.refusal(kind, request);
    if (refusal) throwRefusal(refusal, reply);
  }

  /** Counts the request against `kind` (or only reads the count) and says why it is refused, if it is. */
  private async refusal(
    kind: LimitKind,
    request: FastifyRequest,
    options?: { increment?: boolean },
  ): Promise<Refusal | null> {
    const check = this.checks.get(kind);
    if (!check) return null;
    const result = await check(request, options);
    if (result.isAllowed) return null;
    // Only read (not counted): the budget is spent once what was counted reaches it.
    const spent = options?.increment === false ? result.remaining === 0 : result.isExceeded;
    if (!spent) return null;
    refused.inc({ limit: kind });
    const retryAfterSeconds = Math.max(1, result.ttlInSeconds);
    return { limit: kind, retryAfterSeconds, message: MESSAGES[kind](retryAfterSeconds) };
  }
}

interface Refusal {
  limit: LimitKind;
  retryAfterSeconds: number;
  message: string;
}

function throwRefusal(refusal: Refusal, reply: FastifyReply | undefined): never {
  void reply?.header('retry-after', String(refusal.retryAfterSeconds));
  throw httpError(429, TOO_MANY_REQUESTS, refusal.message, {
    limit: refusal.limit,
    retryAfterSeconds: refusal.retryAfterSeconds,
  });
}

function sendRefusal(reply: FastifyReply, refusal: Refusal): FastifyReply {
  return reply
    .code(429)
    .header('retry-after', String(refusal.retryAfterSeconds))
    .header('content-type', 'application/json; charset=utf-8')
    .send(
      JSON.stringify({
        statusCode: 429,
        reason: TOO_MANY_REQUESTS,
        message: refusal.message,
        limit: refusal.limit,
        retryAfterSeconds: refusal.retryAfterSeconds,
      }),
    );
}

const MESSAGES: Record<LimitKind, (seconds: number) => string> = {
  address: (s) => `too many requests from this address; try again in ${s} s`,
  user: (s) => `too many requests from you; try again in ${s} s`,
  service: (s) => `too many requests with this service token; try again in ${s} s`,
  auth_failures: (s) =>
    `too many failed sign-ins from this address; sign in with a valid token, or try again in ${s} s`,
};
