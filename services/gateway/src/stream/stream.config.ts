import { EnvInt, parseEnv } from '@openq/platform';

/** Variables of the live stream (validated at boot like the rest of the configuration). */
class StreamEnv {
  /** Streams one gateway process keeps open at once; one more is answered 503. */
  @EnvInt(1, 1_000_000)
  GATEWAY_SSE_MAX_STREAMS: number = 1000;

  /** A comment line this often keeps idle connections alive through proxies. */
  @EnvInt(100, 300_000)
  GATEWAY_SSE_HEARTBEAT_MS: number = 15_000;

  /** Missed events replayed on reconnection at most; beyond, the client is told to reload. */
  @EnvInt(0, 100_000)
  GATEWAY_SSE_CATCHUP_MAX: number = 2000;

  /** Reconnections catching up from JetStream at once (each holds up to 4 short-lived consumers). */
  @EnvInt(1, 256)
  GATEWAY_SSE_CATCHUP_CONCURRENCY: number = 8;
}

export interface StreamSettings {
  maxStreams: number;
  heartbeatMs: number;
  catchUpMax: number;
  catchUpConcurrency: number;
  /** Unsent bytes before a slow client is cut off (it reconnects and catches up). */
  maxUnsentBytes: number;
  /** Live events held during a catch-up before the client is cut off. */
  maxHeld: number;
  retryMs: number;
}

export function loadStreamSettings(env: NodeJS.ProcessEnv = process.env): StreamSettings {
  const e = parseEnv(StreamEnv, env);
  return {
    maxStreams: e.GATEWAY_SSE_MAX_STREAMS,
    heartbeatMs: e.GATEWAY_SSE_HEARTBEAT_MS,
    catchUpMax: e.GATEWAY_SSE_CATCHUP_MAX,
    catchUpConcurrency: e.GATEWAY_SSE_CATCHUP_CONCURRENCY,
    maxUnsentBytes: 1024 * 1024,
    maxHeld: 10_000,
    retryMs: 3000,
  };
}
