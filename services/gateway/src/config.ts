import ipaddr from 'ipaddr.js';
import { IsOptional, IsString } from 'class-validator';
import {
  ConfigError,
  EnvInt,
  loadConfig,
  parseAllowedTargets,
  parseEnv,
  type OpenqConfig,
  type OutboundPolicy,
} from '@openq/platform';
import type { AdmissionSettings } from './http/admission';
import { loadRateLimitSettings, type RateLimitSettings } from './http/rate-limit.config';

/** Variables only the gateway reads. */
export class GatewayEnv {
  /** How long the gateway waits for a service's reply before answering 504. */
  @EnvInt(100, 60_000)
  GATEWAY_RPC_TIMEOUT_MS: number = 5000;

  /** Reads (GET) one gateway process handles at once; one more is answered 503 `sobrecarregado` at once. */
  @EnvInt(1, 1_000_000)
  GATEWAY_MAX_READS_IN_FLIGHT: number = 256;

  /** Writes one gateway process handles at once (group-committed by the services); one more → 503. */
  @EnvInt(1, 1_000_000)
  GATEWAY_MAX_WRITES_IN_FLIGHT: number = 4096;

  /** Mean event-loop delay (ms) past which the gateway sheds new requests with 503; 0 turns it off. */
  @EnvInt(0, 60_000)
  GATEWAY_MAX_EVENT_LOOP_DELAY_MS: number = 0;

  /**
   * Issue #27 (SPEC §12.2): the proxies in front of the gateway (comma-separated addresses or
   * CIDRs). The client's address is read from `X-Forwarded-For` only through them; unset, the
   * peer's address is the client's, and `X-Forwarded-For` is ignored.
   */
  @IsOptional()
  @IsString()
  GATEWAY_TRUSTED_PROXIES: string | undefined = undefined;

  /**
   * Issue #27: a port of its own for `/healthz` and `/readyz`, answered by a worker thread so a
   * burst on the main port cannot hold a probe back (the heartbeat of the main loop and its last
   * readiness). Unset: the probes are on the main port only (they always are there too).
   */
  @IsOptional()
  @EnvInt(0, 65_535)
  GATEWAY_PROBE_PORT: number | undefined = undefined;

  /**
   * Issue #28 (SPEC §12.1): the origins that may frame the embeddable pending block
   * (`/embed/projects/:projectId/pending`), comma- or space-separated, e.g.
   * `https://chat.example.com`. Unset: none (`frame-ancestors 'none'`, as every other page).
   */
  @IsOptional()
  @IsString()
  OPENQ_EMBED_ANCESTORS: string | undefined = undefined;

  /**
   * Issue #34 (SPEC §12.5): the Slack app's signing secret; `POST /slack/interactions` takes only
   * requests it signed. Unset: every callback is 401 (Slack's buttons link out instead).
   */
  @IsOptional()
  @IsString()
  OPENQ_SLACK_SIGNING_SECRET: string | undefined = undefined;

  /** Issue #27: where an outbound request may go (here, Slack's `response_url`). */
  @IsOptional()
  @IsString()
  OPENQ_NOTIFY_ALLOWED_TARGETS: string | undefined = undefined;
}

/**
 * One origin a CSP `frame-ancestors` may name: `http(s)://host[:port]`, the host a name (a leading
 * `*.` for its subdomains), an IPv4 address or a bracketed IPv6 one; no path, no quotes.
 */
const EMBED_ORIGIN =
  /^https?:\/\/(?:(?:\*\.)?[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*|\[[0-9a-f:.]+\])(?::\d{1,5})?$/;

/** `OPENQ_EMBED_ANCESTORS` as origins (lower case, no trailing `/`); a bad entry stops the process, named. */
export function parseEmbedAncestors(raw: string | undefined): string[] {
  const entries = (raw ?? '')
    .split(/[\s,]+/)
    .map((s) => s.trim().replace(/\/$/, '').toLowerCase())
    .filter((s) => s !== '');
  for (const entry of entries) {
    const port = /:(\d+)$/.exec(entry)?.[1];
    if (!EMBED_ORIGIN.test(entry) || (port !== undefined && Number(port) > 65_535))
      throw new ConfigError(
        `Invalid configuration: OPENQ_EMBED_ANCESTORS has "${entry}", which is not an origin such as https://chat.example.com`,
      );
  }
  return [...new Set(entries)];
}

/** `GATEWAY_TRUSTED_PROXIES` as a list of addresses and CIDRs; a bad entry stops the process, named. */
export function parseTrustedProxies(raw: string | undefined): string[] {
  const entries = (raw ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  for (const entry of entries) {
    const ok = entry.includes('/') ? ipaddr.isValidCIDR(entry) : ipaddr.isValid(entry);
    if (!ok)
      throw new ConfigError(
        `Invalid configuration: GATEWAY_TRUSTED_PROXIES has "${entry}", which is not an address or a CIDR`,
      );
  }
  return entries;
}

export interface GatewayConfig extends OpenqConfig {
  rpcTimeoutMs: number;
  admission: AdmissionSettings;
  rateLimits: RateLimitSettings;
  /** The proxies whose `X-Forwarded-For` is believed (empty: none). */
  trustedProxies: string[];
  /** The probe port (`GATEWAY_PROBE_PORT`; 0: a free one), or null: none. */
  probePort: number | null;
  /** Origins that may frame the pending block (`OPENQ_EMBED_ANCESTORS`; empty: none). */
  embedAncestors: string[];
  /** Slack's interactive callbacks (issue #34). */
  slack: SlackSettings;
}

export interface SlackSettings {
  /** `OPENQ_SLACK_SIGNING_SECRET`, or null: callbacks are refused. */
  signingSecret: string | null;
  /** Where `response_url` may be (`OPENQ_NOTIFY_ALLOWED_TARGETS`; public addresses otherwise). */
  outbound: OutboundPolicy;
  /** Where a person links their Slack member id: the inbox's settings. */
  settingsUrl: string;
}

/** SPEC §10 (+ GATEWAY_RPC_TIMEOUT_MS); in production the auth secrets must be real. */
export function loadGatewayConfig(env: NodeJS.ProcessEnv = process.env): GatewayConfig {
  const platform = loadConfig(env, { authSecrets: true });
  const own = parseEnv(GatewayEnv, env);
  return {
    ...platform,
    rpcTimeoutMs: own.GATEWAY_RPC_TIMEOUT_MS,
    admission: {
      reads: own.GATEWAY_MAX_READS_IN_FLIGHT,
      writes: own.GATEWAY_MAX_WRITES_IN_FLIGHT,
      maxEventLoopDelayMs: own.GATEWAY_MAX_EVENT_LOOP_DELAY_MS,
    },
    rateLimits: loadRateLimitSettings(env),
    trustedProxies: parseTrustedProxies(own.GATEWAY_TRUSTED_PROXIES),
    probePort: own.GATEWAY_PROBE_PORT ?? null,
    embedAncestors: parseEmbedAncestors(own.OPENQ_EMBED_ANCESTORS),
    slack: {
      signingSecret: own.OPENQ_SLACK_SIGNING_SECRET?.trim() ? own.OPENQ_SLACK_SIGNING_SECRET : null,
      outbound: parseAllowedTargets(own.OPENQ_NOTIFY_ALLOWED_TARGETS),
      settingsUrl: `${platform.links.publicUrl.replace(/\/+$/, '')}/?view=settings#settings-slack`,
    },
  };
}
