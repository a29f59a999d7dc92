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
  const log = { started: 0, finished: 0, settled: 0, startedAfterStop: 0, seqs: [] as number[] };
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
      log.seqs.push(msg.seq);
      msg.ack();
    },
  } as unknown as InboundProcessor;
  return { processor, log, markStopped: () => (stopped = true) };
}

const ACK_WAIT_MS = 8000;
const CONCURRENCY = 4;

describe('ConsumerRunner.stop', () => {
  it('hands back what it pulled and did not start, starts nothing after stop, and waits for what it started', async () => {
    const jsm = await nc.jetstreamManager();
    await jsm.streams.add({ name: 'RUNNER', subjects: ['runner.>'] });
    await jsm.consumers.add('RUNNER', {
      durable_name: 'r',
      ack_policy: AckPolicy.Explicit,
      ack_wait: nanos(ACK_WAIT_MS),
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
      concurrency: CONCURRENCY,
    });
    await runner.start();
    await waitFor(() => log.finished >= 8, { what: 'some messages handled' });
    markStopped();
    await runner.stop();
    const whenStopped = { ...log, seqs: [...log.seqs] };
    await own.drain();

    // Everything started before stop() finished and was settled before stop() resolved.
    expect(whenStopped.startedAfterStop).toBe(0);
    expect(whenStopped.finished).toBe(whenStopped.started);
    expect(whenStopped.settled).toBe(whenStopped.started);
    // What it had pulled comes back at once to the next puller, not after ack_wait…
    const probe = await js.consumers.get('RUNNER', 'r');
    const drain = async (expires: number) => {
      const seqs: number[] = [];
      const batch = await probe.fetch({ max_messages: 200, expires });
      for await (const m of batch) {
        seqs.push(m.seq);
        m.ack();
      }
      return seqs;
    };
    const back = await drain(2000);
    // …except what the server had already sent as the runner unsubscribed (a pull request cannot
    // be taken back): never seen by the runner, it waits for ack_wait — a few at most, never lost.
    const late = (await drain(ACK_WAIT_MS + 5000)).filter(
      (seq) => !back.includes(seq) && !whenStopped.seqs.includes(seq),
    );
    expect(new Set([...whenStopped.seqs, ...back, ...late]).size).toBe(200);
    expect(late.length).toBeLessThanOrEqual(CONCURRENCY * 2);
    expect(back.length).toBeGreaterThan(0);
  });
});
