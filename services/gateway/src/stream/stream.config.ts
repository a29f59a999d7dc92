import { EnvInt, parseEnv } from '@openq/platform';

/** Variables of the live stream (validated at boot like the rest of the configuration). */
class StreamEnv {
  /** Streams one gateway process keeps open at once; one more is answered 503. */
  @EnvInt(1, 1_000_000)
  GATEWAY_SSE_MAX_STREAMS: number = 1000;

  /** Streams one user may hold open in one gateway process; one more is answered 429. */
  @EnvInt(1, 1_000_000)
  GATEWAY_SSE_MAX_STREAMS_PER_USER: number = 20;

  /** Streams one client address may hold open in one gateway process; one more is answered 429. */
  @EnvInt(1, 1_000_000)
  GATEWAY_SSE_MAX_STREAMS_PER_ADDRESS: number = 200;

  /** Bytes a slow reader may leave unsent before its stream is cut (it reconnects and catches up). */
  @EnvInt(16 * 1024, 64 * 1024 * 1024)
  GATEWAY_SSE_MAX_UNSENT_BYTES: number = 1024 * 1024;

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
  maxStreamsPerUser: number;
  maxStreamsPerAddress: number;
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
    maxStreamsPerUser: e.GATEWAY_SSE_MAX_STREAMS_PER_USER,
    maxStreamsPerAddress: e.GATEWAY_SSE_MAX_STREAMS_PER_ADDRESS,
    heartbeatMs: e.GATEWAY_SSE_HEARTBEAT_MS,
    catchUpMax: e.GATEWAY_SSE_CATCHUP_MAX,
    catchUpConcurrency: e.GATEWAY_SSE_CATCHUP_CONCURRENCY,
    maxUnsentBytes: e.GATEWAY_SSE_MAX_UNSENT_BYTES,
    maxHeld: 10_000,
    retryMs: 3000,
  };
}
