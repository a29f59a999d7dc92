import type { NatsConnection } from 'nats';
import { STREAMS } from '@openq/contracts';
import { now } from './stats';

/**
 * Waits until every durable consumer of openq's streams has handled all it was given (nothing
 * pending, nothing awaiting its ack): the services' work of the previous request is over, so the
 * next one meets an idle system — what "one at a time, no queueing" means.
 */
export async function untilServicesIdle(nc: NatsConnection, timeoutMs: number): Promise<void> {
  const jsm = await nc.jetstreamManager();
  const streams = Object.values(STREAMS).map((s) => s.name);
  const deadline = now() + timeoutMs;
  const busy = async (): Promise<boolean> => {
    for (const stream of streams)
      for await (const info of jsm.consumers.list(stream))
        if (info.config.durable_name && (info.num_pending > 0 || info.num_ack_pending > 0)) return true;
    return false;
  };
  while (await busy()) {
    if (now() > deadline)
      throw new Error(`bench: timed out after ${timeoutMs} ms waiting for idle consumers`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
