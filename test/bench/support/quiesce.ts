import type { NatsConnection } from 'nats';
import { STREAMS } from '@openq/contracts';
import { sleep, now } from './stats';

/**
 * Waits until the system is idle: every durable consumer of both streams has nothing pending and
 * nothing unacked. Between measurements, so one scenario's tail (e.g. the context service still
 * projecting declares) never lands in the next one's figures.
 */
export async function quiesce(nc: NatsConnection, timeoutMs = 120_000): Promise<void> {
  const jsm = await nc.jetstreamManager();
  const deadline = now() + timeoutMs;
  for (;;) {
    let busy = 0;
    for (const stream of [STREAMS.agentEvents.name, STREAMS.openqEvents.name]) {
      for await (const c of jsm.consumers.list(stream)) {
        if (c.config.durable_name) busy += c.num_pending + c.num_ack_pending;
      }
    }
    if (busy === 0) return;
    if (now() > deadline)
      throw new Error(`bench: the stack did not go idle in ${timeoutMs} ms (${busy} messages pending)`);
    await sleep(100);
  }
}

/** Deliveries so far of every durable consumer of both streams (`delivered.consumer_seq`), by durable. */
export async function deliveriesByDurable(nc: NatsConnection): Promise<Map<string, number>> {
  const jsm = await nc.jetstreamManager();
  const out = new Map<string, number>();
  for (const stream of [STREAMS.agentEvents.name, STREAMS.openqEvents.name]) {
    for await (const c of jsm.consumers.list(stream)) {
      if (c.config.durable_name) out.set(c.config.durable_name, c.delivered.consumer_seq);
    }
  }
  return out;
}
