import type { ConsumerConfig, JetStreamManager, StreamConfig } from 'nats';
import { STREAMS, streamOfType, type StreamKey } from '@openq/contracts';
import { consumerConfig, streamConfig, type ConsumerSettings, type StreamSettings } from './topology';

/** Creates the stream, or brings an existing one to the configuration; safe to run concurrently. */
export async function ensureStream(jsm: JetStreamManager, config: Partial<StreamConfig>): Promise<void> {
  const name = config.name!;
  for (let attempt = 0; attempt < 3; attempt++) {
    const existing = await jsm.streams.info(name).catch((e: unknown) => (isNotFound(e) ? null : Promise.reject(e)));
    if (existing) {
      if (needsUpdate(existing.config as unknown as Record<string, unknown>, config as Record<string, unknown>)) {
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

/** Creates the durable consumer, or updates it when its configuration changed; idempotent. */
export async function ensureConsumer(jsm: JetStreamManager, stream: string, config: Partial<ConsumerConfig> & { durable_name: string }): Promise<void> {
  const existing = await jsm.consumers.info(stream, config.durable_name).catch((e: unknown) => (isNotFound(e) ? null : Promise.reject(e)));
  if (existing) {
    if (needsUpdate(existing.config as unknown as Record<string, unknown>, config as Record<string, unknown>)) {
      await jsm.consumers.update(stream, config.durable_name, config);
    }
    return;
  }
  try {
    await jsm.consumers.add(stream, config);
  } catch (error) {
    if (!/already (exists|in use)/i.test(String(error))) throw error;
  }
}

export async function ensureEventConsumer(jsm: JetStreamManager, service: string, type: string, settings?: ConsumerSettings): Promise<{ stream: string; durable: string }> {
  const stream = STREAMS[streamOfType(type)].name;
  const config = consumerConfig(service, type, settings);
  await ensureConsumer(jsm, stream, config);
  return { stream, durable: config.durable_name };
}

function isNotFound(error: unknown): boolean {
  return /not found/i.test(String(error)) || (error as { api_error?: { err_code?: number } }).api_error?.err_code === 10059 || (error as { api_error?: { err_code?: number } }).api_error?.err_code === 10014;
}

function needsUpdate(current: Record<string, unknown>, wanted: Record<string, unknown>): boolean {
  return Object.entries(wanted).some(([k, v]) => JSON.stringify(current[k]) !== JSON.stringify(v));
}
