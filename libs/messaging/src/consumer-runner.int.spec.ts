import { AckPolicy, connect, nanos, type JsMsg, type NatsConnection } from 'nats';
import { startNatsServer, waitFor, type TestNatsServer } from '@openq/testing';
import { ConsumerRunner } from './consumer-runner';
import type { InboundProcessor, Outcome } from './inbound';

let nats: TestNatsServer;
let nc: NatsConnection;

beforeAll(async () => {
  nats = await startNatsServer();
  nc = await connect({ servers: nats.url });
});
afterAll(async () => {
  await nc.close();
  await nats.stop();
});

/** A processor that takes `ms` per message and records when each handling started and ended. */
function slowProcessor(ms: number) {
  const log = { started: 0, finished: 0, settled: 0, startedAfterStop: 0 };
  let stopped = false;
  const processor = {
    process: async (): Promise<Outcome> => {
      log.started++;
      if (stopped) log.startedAfterStop++;
      await new Promise((r) => setTimeout(r, ms));
      log.finished++;
      return 'ack';
    },
    settle: (msg: JsMsg) => {
      log.settled++;
      msg.ack();
    },
  } as unknown as InboundProcessor;
  return { processor, log, markStopped: () => (stopped = true) };
}

describe('ConsumerRunner.stop', () => {
  it('hands back what it pulled and did not start, starts nothing after stop, and waits for what it started', async () => {
    const jsm = await nc.jetstreamManager();
    await jsm.streams.add({ name: 'RUNNER', subjects: ['runner.>'] });
    await jsm.consumers.add('RUNNER', {
      durable_name: 'r',
      ack_policy: AckPolicy.Explicit,
      ack_wait: nanos(30_000),
      max_ack_pending: 256,
    });
    const js = nc.jetstream();
    for (let i = 0; i < 200; i++) await js.publish('runner.x', new Uint8Array([i % 256]));

    // The runner's own connection, closed right after stop() — as a service's shutdown does.
    const own = await connect({ servers: nats.url });
    const { processor, log, markStopped } = slowProcessor(60);
    const runner = new ConsumerRunner(own.jetstream(), processor, {
      stream: 'RUNNER',
      durable: 'r',
      concurrency: 4,
    });
    await runner.start();
    await waitFor(() => log.finished >= 8, { what: 'some messages handled' });
    markStopped();
    await runner.stop();
    const whenStopped = { ...log };
    await own.drain();

    // Everything started before stop() finished and was settled before stop() resolved.
    expect(whenStopped.startedAfterStop).toBe(0);
    expect(whenStopped.finished).toBe(whenStopped.started);
    expect(whenStopped.settled).toBe(whenStopped.started);
    // Nothing waits for ack_wait: every message not acked comes back at once to the next puller.
    const probe = await js.consumers.get('RUNNER', 'r');
    let back = 0;
    const batch = await probe.fetch({ max_messages: 200, expires: 2000 });
    for await (const m of batch) {
      back++;
      m.ack();
    }
    expect(back + whenStopped.settled).toBe(200);
  });
});
