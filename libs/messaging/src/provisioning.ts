import {
  DeliverPolicy,
  ErrorCode,
  NatsError,
  type ConsumerConfig,
  type ConsumerInfo,
  type JetStreamManager,
  type StreamConfig,
} from 'nats';
import { RETIRED_CONSUMERS, STREAMS, streamOfType, type StreamKey } from '@openq/contracts';
import { consumerConfig, streamConfig, type ConsumerSettings, type StreamSettings } from './topology';

/** Creates the stream, or brings an existing one to the configuration; safe to run concurrently. */
export async function ensureStream(jsm: JetStreamManager, config: Partial<StreamConfig>): Promise<void> {
  const name = config.name!;
  for (let attempt = 0; attempt < 3; attempt++) {
    const existing = await jsm.streams
      .info(name)
      .catch((e: unknown) => (isNotFound(e) ? null : Promise.reject(e)));
    if (existing) {
      if (
        needsUpdate(existing.config as unknown as Record<string, unknown>, config as Record<string, unknown>)
      ) {
        await jsm.streams.update(name, config);
      }
      return;
    }
    try {
      await jsm.streams.add(config);
      return;
    } catch (error) {
      if (!/already in use|already exists/i.test(String(error))) throw error;
      // another process created it between our info and add: look again
    }
  }
}

export async function ensureStreams(jsm: JetStreamManager, settings?: StreamSettings): Promise<void> {
  for (const key of Object.keys(STREAMS) as StreamKey[]) await ensureStream(jsm, streamConfig(key, settings));
}

/** The durable consumer's state, or null when there is none (never made, or deleted). */
export function consumerInfoOrNull(
  jsm: JetStreamManager,
  stream: string,
  durable: string,
): Promise<ConsumerInfo | null> {
  return jsm.consumers
    .info(stream, durable)
    .catch((e: unknown) => (isNotFound(e) ? null : Promise.reject(e)));
}

/**
 * Creates the durable consumer, or updates it when its configuration changed; idempotent. Where a
 * new one starts (`deliver_policy`, `opt_start_seq`) is set at its creation only: JetStream keeps
 * it, and an existing consumer is never compared on it.
 */
export async function ensureConsumer(
  jsm: JetStreamManager,
  stream: string,
  config: Partial<ConsumerConfig> & { durable_name: string },
): Promise<void> {
  const existing = await consumerInfoOrNull(jsm, stream, config.durable_name);
  if (existing) {
    const { deliver_policy: _policy, opt_start_seq: _start, ...kept } = config;
    if (needsUpdate(existing.config as unknown as Record<string, unknown>, kept as Record<string, unknown>)) {
      await jsm.consumers.update(stream, config.durable_name, kept);
    }
    return;
  }
  try {
    await jsm.consumers.add(stream, config);
  } catch (error) {
    if (!/already (exists|in use)/i.test(String(error))) throw error;
  }
}

export async function ensureEventConsumer(
  jsm: JetStreamManager,
  service: string,
  type: string,
  settings?: ConsumerSettings,
  /** Made now, it starts after this stream sequence instead of at the stream's beginning. */
  startAfter?: number,
): Promise<{ stream: string; durable: string }> {
  const stream = STREAMS[streamOfType(type)].name;
  const config = consumerConfig(service, type, settings);
  await ensureConsumer(
    jsm,
    stream,
    startAfter === undefined
      ? config
      : { ...config, deliver_policy: DeliverPolicy.StartSequence, opt_start_seq: startAfter + 1 },
  );
  return { stream, durable: config.durable_name };
}

/**
 * Deletes `service`'s durable consumers listed in `RETIRED_CONSUMERS` (a type it no longer
 * consumes); one already gone is fine. Returns the durables it deleted.
 */
export async function retireConsumers(
  jsm: JetStreamManager,
  service: string,
  retired = RETIRED_CONSUMERS,
): Promise<string[]> {
  const deleted: string[] = [];
  for (const r of retired.filter((c) => c.service === service)) {
    const stream = STREAMS[streamOfType(r.type)].name;
    const durable = consumerConfig(service, r.type).durable_name;
    const gone = await jsm.consumers
      .delete(stream, durable)
      .catch((e: unknown) => (isNotFound(e) ? false : Promise.reject(e)));
    if (gone) deleted.push(durable);
  }
  return deleted;
}

function isNotFound(error: unknown): boolean {
  return (
    /not found/i.test(String(error)) ||
    (error as { api_error?: { err_code?: number } }).api_error?.err_code === 10059 ||
    (error as { api_error?: { err_code?: number } }).api_error?.err_code === 10014
  );
}

function needsUpdate(current: Record<string, unknown>, wanted: Record<string, unknown>): boolean {
  return Object.entries(wanted).some(([k, v]) => JSON.stringify(current[k]) !== JSON.stringify(v));
}

/**
 * Whether the JetStream API is only settling: no answer in time, no responder yet, or "JetStream
 * system temporarily unavailable" (10008) — what a cluster answers for seconds after it starts or
 * loses its meta leader. Anything else (a bad configuration, too many replicas) is not retried.
 */
export function isJetStreamSettling(error: unknown): boolean {
  if (
    error instanceof NatsError &&
    (error.code === ErrorCode.Timeout || error.code === ErrorCode.NoResponders)
  )
    return true;
  return (error as { api_error?: { err_code?: number } } | null)?.api_error?.err_code === 10008;
}

/**
 * Runs an idempotent provisioning step (streams, consumers), again while JetStream is settling,
 * for at most `budgetMs`; then the last error is thrown (the process reports it and exits).
 */
export async function whileJetStreamSettles<T>(step: () => Promise<T>, budgetMs = 30_000): Promise<T> {
  const deadline = Date.now() + budgetMs;
  for (let pause = 100; ; pause = Math.min(pause * 2, 2000)) {
    try {
      return await step();
    } catch (error) {
      if (!isJetStreamSettling(error) || Date.now() + pause > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }
}
