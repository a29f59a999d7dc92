import { IsIn } from 'class-validator';
import { EnvInt, parseEnv } from '@openq/platform';

/** Variables of the gateway's rate limits (validated at boot like the rest); 0 turns a limit off. */
class RateLimitEnv {
  /** The window every limit counts in. */
  @EnvInt(1000, 3_600_000)
  GATEWAY_RATE_LIMIT_WINDOW_MS: number = 60_000;

  /**
   * Requests one client address may make per window without authenticating (no credential, a
   * credential that fails, a public route); health and metrics excepted. A signed-in user or the
   * engine is limited by its own budget, not by this one (issue #27).
   */
  @EnvInt(0, 10_000_000)
  GATEWAY_RATE_LIMIT_PER_ADDRESS: number = 6000;

  /** Requests one signed-in user may make per window on the user routes. */
  @EnvInt(0, 10_000_000)
  GATEWAY_RATE_LIMIT_PER_USER: number = 1200;

  /** Requests one service token may make per window on the `/internal` routes. */
  @EnvInt(0, 10_000_000)
  GATEWAY_RATE_LIMIT_PER_SERVICE: number = 60_000;

  /**
   * Failed authentications (401) from one address per window; past it a request from there that
   * fails to authenticate gets 429 — one that authenticates never does (issue #27).
   */
  @EnvInt(0, 10_000_000)
  GATEWAY_RATE_LIMIT_AUTH_FAILURES: number = 60;

  /** Where the counts live: `memory` (one gateway process) or `nats` (shared by every replica). */
  @IsIn(['memory', 'nats'], { message: 'GATEWAY_RATE_LIMIT_STORE must be memory or nats' })
  GATEWAY_RATE_LIMIT_STORE: 'memory' | 'nats' = 'memory';
}

export interface RateLimitSettings {
  windowMs: number;
  perAddress: number;
  perUser: number;
  perService: number;
  authFailures: number;
  store: 'memory' | 'nats';
}

export function loadRateLimitSettings(env: NodeJS.ProcessEnv = process.env): RateLimitSettings {
  const e = parseEnv(RateLimitEnv, env);
  return {
    windowMs: e.GATEWAY_RATE_LIMIT_WINDOW_MS,
    perAddress: e.GATEWAY_RATE_LIMIT_PER_ADDRESS,
    perUser: e.GATEWAY_RATE_LIMIT_PER_USER,
    perService: e.GATEWAY_RATE_LIMIT_PER_SERVICE,
    authFailures: e.GATEWAY_RATE_LIMIT_AUTH_FAILURES,
    store: e.GATEWAY_RATE_LIMIT_STORE,
  };
}
