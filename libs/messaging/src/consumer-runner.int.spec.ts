import { AckPolicy, connect, nanos, type JsMsg, type NatsConnection } from 'nats';
import { startNatsServer, waitFor, type TestNatsServer } from '@openq/testing';
import { ConsumerRunner } from './consumer-runner';
import { ForegroundWork } from './foreground';
import type { InboundProcessor, Outcome } from './inbound';
import { TransactionSlots } from './transaction-slots';

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

/** A processor that takes `ms` per batch and records how many messages it started and finished. */
function slowProcessor(ms: number) {
  const log = { started: 0, finished: 0, settled: 0, startedAfterStop: 0, seqs: [] as number[] };
  let stopped = false;
  const processor = {
    processBatch: async (msgs: JsMsg[]): Promise<Outcome[]> => {
      log.started += msgs.length;
      if (stopped) log.startedAfterStop += msgs.length;
      await new Promise((r) => setTimeout(r, ms));
      log.finished += msgs.length;
      return msgs.map(() => 'ack');
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
const BATCH_SIZE = 5;

describe('ConsumerRunner.stop', () => {
  it('hands back what it pulled and did not start, starts nothing after stop, and waits for the batches it started', async () => {
    const jsm = await nc.jetstreamManager();
    await jsm.streams.add({ name: 'RUNNER', subjects: ['runner.>'] });
    await jsm.consumers.add('RUNNER', {
      durable_name: 'r',
      ack_policy: AckPolicy.Explicit,
      ack_wait: nanos(ACK_WAIT_MS),
      max_ack_pending: 256,
    });
    const js = nc.jetstream();
    for (let i = 0; i < 200; i++) await js.publish(`runner.s${i % 8}`, new Uint8Array([i % 256]));

    // The runner's own connection, closed right after stop() — as a service's shutdown does.
    const own = await connect({ servers: nats.url });
    const { processor, log, markStopped } = slowProcessor(60);
    const runner = new ConsumerRunner(own.jetstream(), processor, {
      stream: 'RUNNER',
      durable: 'r',
      concurrency: CONCURRENCY,
      batchSize: BATCH_SIZE,
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
    const late: number[] = [];
    const seen = () => new Set([...whenStopped.seqs, ...back, ...late]).size;
    const deadline = Date.now() + ACK_WAIT_MS + 5000;
    while (seen() < 200 && Date.now() < deadline)
      late.push(
        ...(await drain(1000)).filter((seq) => !back.includes(seq) && !whenStopped.seqs.includes(seq)),
      );
    expect(new Set([...whenStopped.seqs, ...back, ...late]).size).toBe(200);
    expect(late.length).toBeLessThanOrEqual(CONCURRENCY * 2);
    expect(back.length).toBeGreaterThan(0);
  });
});

describe('ConsumerRunner batches', () => {
  it('gathers what is ready into batches of at most batchSize, one batch per subject at a time, each subject in stream order', async () => {
    const jsm = await nc.jetstreamManager();
    await jsm.streams.add({ name: 'BATCHES', subjects: ['batches.>'] });
    await jsm.consumers.add('BATCHES', {
      durable_name: 'b',
      ack_policy: AckPolicy.Explicit,
      ack_wait: nanos(30_000),
      max_ack_pending: 256,
    });
    const js = nc.jetstream();
    const total = 300;
    await Promise.all(Array.from({ length: total }, (_, i) => js.publish(`batches.s${i % 5}`)));

    const batches: JsMsg[][] = [];
    const inFlight = new Set<string>();
    const overlaps: string[] = [];
    const applied = new Map<string, number[]>();
    const processor = {
      processBatch: async (msgs: JsMsg[]): Promise<Outcome[]> => {
        batches.push(msgs);
        const subjects = new Set(msgs.map((m) => m.subject));
        for (const s of subjects) if (inFlight.has(s)) overlaps.push(s);
        for (const s of subjects) inFlight.add(s);
        await new Promise((r) => setTimeout(r, 20));
        for (const m of msgs) applied.set(m.subject, [...(applied.get(m.subject) ?? []), m.seq]);
        for (const s of subjects) inFlight.delete(s);
        return msgs.map(() => 'ack');
      },
      settle: (msg: JsMsg) => msg.ack(),
    } as unknown as InboundProcessor;
    const runner = new ConsumerRunner(js, processor, {
      stream: 'BATCHES',
      durable: 'b',
      concurrency: 2,
      batchSize: 32,
    });
    await runner.start();
    await waitFor(() => runner.handled === total, { what: `${total} handled` });
    await runner.stop();

    expect(batches.flat()).toHaveLength(total);
    expect(Math.max(...batches.map((b) => b.length))).toBeLessThanOrEqual(32);
    expect(batches.some((b) => b.length > 1)).toBe(true); // messages waiting for a slot went together
    expect(overlaps).toEqual([]);
    for (const [, seqs] of applied) expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
  });

  it('hands a lone message over at once, alone', async () => {
    const jsm = await nc.jetstreamManager();
    await jsm.streams.add({ name: 'LONE', subjects: ['lone.>'] });
    await jsm.consumers.add('LONE', { durable_name: 'l', ack_policy: AckPolicy.Explicit });
    const batches: number[] = [];
    const processor = {
      processBatch: async (msgs: JsMsg[]): Promise<Outcome[]> => {
        batches.push(msgs.length);
        return msgs.map(() => 'ack');
      },
      settle: (msg: JsMsg) => msg.ack(),
    } as unknown as InboundProcessor;
    const runner = new ConsumerRunner(nc.jetstream(), processor, {
      stream: 'LONE',
      durable: 'l',
      concurrency: 4,
    });
    await runner.start();
    await nc.jetstream().publish('lone.x');
    await waitFor(() => runner.handled === 1, { what: 'the lone message handled' });
    await nc.jetstream().publish('lone.y');
    await waitFor(() => runner.handled === 2, { what: 'the second lone message handled' });
    await runner.stop();
    expect(batches).toEqual([1, 1]);
  });
});

describe('ConsumerRunner with shared transaction slots', () => {
  it('keeps the batches of all runners within the slots, gathers what waited, and starves no runner', async () => {
    const jsm = await nc.jetstreamManager();
    await jsm.streams.add({ name: 'SLOTS', subjects: ['slots.>'] });
    for (const durable of ['a', 'b'])
      await jsm.consumers.add('SLOTS', {
        durable_name: durable,
        filter_subject: `slots.${durable}.>`,
        ack_policy: AckPolicy.Explicit,
        ack_wait: nanos(30_000),
        max_ack_pending: 256,
      });
    const js = nc.jetstream();
    const perDurable = 120;
    await Promise.all(
      Array.from({ length: perDurable * 2 }, (_, i) => js.publish(`slots.${i % 2 ? 'b' : 'a'}.s${i % 6}`)),
    );

    const slots = new TransactionSlots(1);
    let inFlight = 0;
    let mostInFlight = 0;
    const sizes: Record<string, number[]> = { a: [], b: [] };
    const processorOf = (durable: string) =>
      ({
        processBatch: async (msgs: JsMsg[]): Promise<Outcome[]> => {
          inFlight++;
          mostInFlight = Math.max(mostInFlight, inFlight, slots.inUse);
          sizes[durable]!.push(msgs.length);
          await new Promise((r) => setTimeout(r, 15));
          inFlight--;
          return msgs.map(() => 'ack');
        },
        settle: (msg: JsMsg) => msg.ack(),
      }) as unknown as InboundProcessor;
    const runners = ['a', 'b'].map(
      (durable) =>
        new ConsumerRunner(js, processorOf(durable), {
          stream: 'SLOTS',
          durable,
          concurrency: 8,
          batchSize: 64,
          slots,
        }),
    );
    for (const runner of runners) await runner.start();
    await waitFor(() => runners.every((r) => r.handled === perDurable), { what: 'both durables handled' });
    for (const runner of runners) await runner.stop();

    expect(mostInFlight).toBe(1); // one slot: one batch at a time across both runners
    expect(slots.inUse).toBe(0);
    for (const durable of ['a', 'b']) {
      expect(sizes[durable]!.reduce((a, b) => a + b, 0)).toBe(perDurable);
      // What arrived while the slot was busy went together: far fewer transactions than messages.
      expect(sizes[durable]!.length).toBeLessThan(perDurable / 4);
    }
  });

  it('still hands a lone message over at once, alone, when a slot is free', async () => {
    const jsm = await nc.jetstreamManager();
    await jsm.streams.add({ name: 'SLOTLONE', subjects: ['slotlone.>'] });
    await jsm.consumers.add('SLOTLONE', { durable_name: 'l', ack_policy: AckPolicy.Explicit });
    const batches: number[] = [];
    const processor = {
      processBatch: async (msgs: JsMsg[]): Promise<Outcome[]> => {
        batches.push(msgs.length);
        return msgs.map(() => 'ack');
      },
      settle: (msg: JsMsg) => msg.ack(),
    } as unknown as InboundProcessor;
    const slots = new TransactionSlots(2);
    const runner = new ConsumerRunner(nc.jetstream(), processor, {
      stream: 'SLOTLONE',
      durable: 'l',
      concurrency: 4,
      slots,
    });
    await runner.start();
    await nc.jetstream().publish('slotlone.x');
    await waitFor(() => runner.handled === 1, { what: 'the lone message handled' });
    await nc.jetstream().publish('slotlone.y');
    await waitFor(() => runner.handled === 2, { what: 'the second lone message handled' });
    await runner.stop();
    expect(batches).toEqual([1, 1]);
    expect(slots.inUse).toBe(0);
  });
});

describe('ConsumerRunner linger (lingerMs)', () => {
  it('lets a batch wait for company only while work queues; after a batch of one, a message goes at once', async () => {
    const jsm = await nc.jetstreamManager();
    await jsm.streams.add({ name: 'LINGER', subjects: ['linger.>'] });
    await jsm.consumers.add('LINGER', { durable_name: 'l', ack_policy: AckPolicy.Explicit });
    const js = nc.jetstream();
    const batches: string[][] = [];
    let hold: Promise<void> | null = null;
    const processor = {
      processBatch: async (msgs: JsMsg[]): Promise<Outcome[]> => {
        batches.push(msgs.map((m) => m.subject.slice('linger.'.length)));
        await hold;
        return msgs.map(() => 'ack');
      },
      settle: (msg: JsMsg) => msg.ack(),
    } as unknown as InboundProcessor;
    const LINGER_MS = 1500;
    const runner = new ConsumerRunner(js, processor, {
      stream: 'LINGER',
      durable: 'l',
      concurrency: 1,
      lingerMs: LINGER_MS,
    });
    await runner.start();
    let release!: () => void;
    hold = new Promise((r) => (release = r));
    await js.publish('linger.a');
    await waitFor(() => batches.length === 1, { what: 'a in its batch' });
    await js.publish('linger.b'); // queue behind the held batch
    await js.publish('linger.c');
    await waitFor(() => runner['ready']() === 2, { what: 'b and c waiting' });
    hold = null;
    release();
    // After a batch of one, what waited goes at once, together.
    await waitFor(() => runner.handled === 3, { what: 'b and c handled' });
    // Work queued (the last batch held two): d waits for company, and e, published right after, joins it.
    await js.publish('linger.d');
    await js.publish('linger.e');
    await waitFor(() => runner.handled === 5, { what: 'd and e handled', timeoutMs: 10_000 });
    // Still after a batch of two: f lingers, finds nobody, and goes alone; g, after a batch of one, at once.
    await js.publish('linger.f');
    await waitFor(() => runner.handled === 6, { what: 'f handled', timeoutMs: 10_000 });
    const sent = Date.now();
    await js.publish('linger.g');
    await waitFor(() => runner.handled === 7, { what: 'g handled', timeoutMs: 10_000 });
    const gTook = Date.now() - sent;
    await runner.stop();
    expect(batches).toEqual([['a'], ['b', 'c'], ['d', 'e'], ['f'], ['g']]);
    expect(gTook).toBeLessThan(LINGER_MS); // g did not linger
  });
});

describe('ConsumerRunner background yield', () => {
  it("lets a background batch wait while the process's foreground batches run, at most yieldMs, and not at all with no foreground consumer", async () => {
    const jsm = await nc.jetstreamManager();
    await jsm.streams.add({ name: 'YIELD', subjects: ['fg.>', 'bg.>'] });
    await jsm.consumers.add('YIELD', {
      durable_name: 'fg',
      ack_policy: AckPolicy.Explicit,
      filter_subject: 'fg.>',
    });
    await jsm.consumers.add('YIELD', {
      durable_name: 'bg',
      ack_policy: AckPolicy.Explicit,
      filter_subject: 'bg.>',
    });
    const js = nc.jetstream();
    const order: string[] = [];
    let hold: Promise<void> | null = null;
    const processor = {
      processBatch: async (msgs: JsMsg[]): Promise<Outcome[]> => {
        order.push(...msgs.map((m) => `${m.subject} start`));
        if (msgs[0]!.subject.startsWith('fg.')) await hold;
        order.push(...msgs.map((m) => `${m.subject} end`));
        return msgs.map(() => 'ack');
      },
      settle: (msg: JsMsg) => msg.ack(),
    } as unknown as InboundProcessor;
    const work = new ForegroundWork();
    const YIELD_MS = 2000;
    const background = new ConsumerRunner(js, processor, {
      stream: 'YIELD',
      durable: 'bg',
      concurrency: 1,
      foreground: { work, role: 'background', yieldMs: YIELD_MS },
    });
    await background.start();
    // No foreground consumer in the process: nothing to yield to.
    const alone = Date.now();
    await js.publish('bg.alone');
    await waitFor(() => background.handled === 1, { what: 'bg.alone handled' });
    expect(Date.now() - alone).toBeLessThan(YIELD_MS);

    const foreground = new ConsumerRunner(js, processor, {
      stream: 'YIELD',
      durable: 'fg',
      concurrency: 1,
      foreground: { work, role: 'foreground' },
    });
    await foreground.start();
    let release!: () => void;
    hold = new Promise((r) => (release = r));
    await js.publish('fg.a');
    await waitFor(() => work.busy, { what: 'fg.a running' });
    await js.publish('bg.b');
    // b waits for a, however long a's batch lasts within the bound…
    const since = Date.now();
    await waitFor(() => Date.now() - since >= 300, { what: 'a while', intervalMs: 50 });
    expect(order).not.toContain('bg.b start');
    release();
    await waitFor(() => background.handled === 2, { what: 'bg.b handled' });
    expect(order.indexOf('bg.b start')).toBeGreaterThan(order.indexOf('fg.a end'));

    // …and at most yieldMs while foreground work goes on.
    hold = new Promise((r) => (release = r));
    await js.publish('fg.c');
    await waitFor(() => work.busy, { what: 'fg.c running' });
    const sent = Date.now();
    await js.publish('bg.d');
    await waitFor(() => background.handled === 3, { what: 'bg.d handled', timeoutMs: 10_000 });
    const waited = Date.now() - sent;
    expect(order).not.toContain('fg.c end'); // d went while c still ran
    expect(waited).toBeGreaterThanOrEqual(YIELD_MS - 50);
    release();
    await waitFor(() => foreground.handled === 2, { what: 'fg.c handled' });
    await foreground.stop();
    await background.stop();
    expect(work.busy).toBe(false);
    expect(work.present).toBe(false);
  });
});

describe('ConsumerRunner keep-alive', () => {
  it("keeps what it holds from redelivery for longer than the durable's ack_wait, whatever that is", async () => {
    const jsm = await nc.jetstreamManager();
    await jsm.streams.add({ name: 'KEEP', subjects: ['keep.>'] });
    // Shorter than the library's default: the keep-alive follows the durable as the server has it.
    const ACK_WAIT = 1500;
    await jsm.consumers.add('KEEP', {
      durable_name: 'k',
      ack_policy: AckPolicy.Explicit,
      ack_wait: nanos(ACK_WAIT),
    });
    const js = nc.jetstream();
    const deliveries: number[] = [];
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const processor = {
      received: (msg: JsMsg) => deliveries.push(msg.info.deliveryCount),
      processBatch: async (msgs: JsMsg[]): Promise<Outcome[]> => {
        await held;
        return msgs.map(() => 'ack');
      },
      settle: (msg: JsMsg) => msg.ack(),
    } as unknown as InboundProcessor;
    const runner = new ConsumerRunner(js, processor, { stream: 'KEEP', durable: 'k', concurrency: 1 });
    await runner.start();
    await js.publish('keep.a'); // handled: held in its transaction
    await js.publish('keep.a'); // waits in its lane behind the first
    await waitFor(() => deliveries.length === 2, { what: 'both delivered' });
    // Four ack_waits: a keep-alive fixed longer than ack_wait would have let the server redeliver both.
    const since = Date.now();
    await waitFor(() => Date.now() - since >= 4 * ACK_WAIT, { what: 'four ack_waits', intervalMs: 100 });
    release();
    await waitFor(() => runner.handled === 2, { what: 'both handled' });
    await runner.stop();
    expect(deliveries).toEqual([1, 1]);
    // The acks are fire-and-forget: the server counts them a moment after `stop` returns.
    const info = await waitFor(
      async () => {
        const now = await jsm.consumers.info('KEEP', 'k');
        return now.num_ack_pending === 0 ? now : null;
      },
      { what: 'both acks counted by the server' },
    );
    expect(info.num_redelivered).toBe(0);
  });
});
