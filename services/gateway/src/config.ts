import { EnvInt, loadConfig, parseEnv, type OpenqConfig } from '@openq/platform';
import { loadRateLimitSettings, type RateLimitSettings } from './http/rate-limit.config';

/** Variables only the gateway reads. */
class GatewayEnv {
  /** How long the gateway waits for a service's reply before answering 504. */
  @EnvInt(100, 60_000)
  GATEWAY_RPC_TIMEOUT_MS: number = 5000;
}

export interface GatewayConfig extends OpenqConfig {
  rpcTimeoutMs: number;
  rateLimits: RateLimitSettings;
}

/** SPEC §10 (+ GATEWAY_RPC_TIMEOUT_MS); in production the auth secrets must be real. */
export function loadGatewayConfig(env: NodeJS.ProcessEnv = process.env): GatewayConfig {
  const platform = loadConfig(env, { authSecrets: true });
  const own = parseEnv(GatewayEnv, env);
  return { ...platform, rpcTimeoutMs: own.GATEWAY_RPC_TIMEOUT_MS, rateLimits: loadRateLimitSettings(env) };
}
