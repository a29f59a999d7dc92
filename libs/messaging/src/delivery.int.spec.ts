import { connect, headers, type JsMsg, type NatsConnection } from 'nats';
import type { DataSource } from 'typeorm';
import { eventSubject, makeEnvelope, STREAMS } from '@openq/contracts';
import {
  createTestDatabase,
  EventCollector,
  startNatsServer,
  waitFor,
  type TestDatabase,
  type TestNatsServer,
} from '@openq/testing';
import { encodeJson } from './codec';
import { InboundProcessor, type EventContext } from './inbound';
import { OutboxRelay } from './outbox-relay';
import { ensureEventConsumer, ensureStreams } from './provisioning';
import { RpcClient } from './rpc-client';
import { RetryLaterError } from './retry-later';
import { SubjectOrder } from './subject-order';
import {
  openPingDatabase,
  PING,
  PING_SCHEMA,
  PONGED,
  eventRegistry,
  startPingService,
} from './__fixtures__/ping-service.fixture';
import { appendToOutbox } from './outbox';

let nats: TestNatsServer;
let db: TestDatabase;
let nc: NatsConnection;

beforeEach(async () => {
  nats = await startNatsServer();
  db = await createTestDatabase();
  nc = await connect({ servers: nats.url });
});

afterEach(async () => {
  await nc.close();
  await nats.stop();
  await db.drop();
});

async function publishPing(n: number, projectId = 'p1', note = 'hi'): Promise<string> {
  const envelope = makeEnvelope(PING, projectId, { n, note });
  await nc
    .jetstream()
    .publish(eventSubject(PING, projectId), encodeJson(envelope), { msgID: envelope.eventId });
  return envelope.eventId;
}

async function count(ds: DataSource, sql: string): Promise<number> {
  const [row] = await ds.query(sql);
  return Number((row as { n: string }).n);
}

describe('exactly-once delivery over real JetStream and PostgreSQL', () => {
  it('applies a message delivered 5 times (ack withheld) exactly once, with one outbox event', async () => {
    const ds = await openPingDatabase(db.url);
    const jsm = await nc.jetstreamManager();
    await ensureStreams(jsm);
    const { stream, durable } = await ensureEventConsumer(jsm, 'testsvc', PING, {
      ackWaitMs: 1000,
      maxDeliver: -1,
      maxAckPending: 10,
    });
    const processor = new InboundProcessor(
      ds,
      async (data, ctx) => {
        await ctx.manager.query(`INSERT INTO effects (event_id, n, applied_by) VALUES ($1, $2, 'x')`, [
          ctx.envelope.eventId,
          (data as { n: number }).n,
        ]);
        ctx.outbox.event(PONGED, ctx.envelope.projectId, { n: 1 });
      },
      { consumer: durable, registry: eventRegistry },
    );
    await publishPing(1);
    const consumer = await nc.jetstream().consumers.get(stream, durable);
    const deliveries: number[] = [];
    for (let i = 1; i <= 5; i++) {
      const msg = await consumer.next({ expires: 5000 });
      expect(msg).not.toBeNull();
      deliveries.push(msg!.info.deliveryCount);
      expect(await processor.process(msg!)).toBe('ack');
      if (i < 5)
        msg!.nak(); // withhold the ack: the server delivers it again
      else msg!.ack();
    }
    expect(deliveries).toEqual([1, 2, 3, 4, 5]);
    expect(await count(ds, `SELECT count(*) AS n FROM effects`)).toBe(1);
    expect(await count(ds, `SELECT count(*) AS n FROM outbox`)).toBe(1);
    expect(await count(ds, `SELECT count(*) AS n FROM inbox`)).toBe(1);
    await ds.destroy();
  });

  it('retries a message whose dependency is down for as long as it lasts, and dead-letters other failures after maxAttempts', async () => {
    const ds = await openPingDatabase(db.url);
    const jsm = await nc.jetstreamManager();
    await ensureStreams(jsm);
    const { stream, durable } = await ensureEventConsumer(jsm, 'testsvc', PING, {
      ackWaitMs: 1000,
      maxDeliver: -1,
      maxAckPending: 10,
    });
    let failure: Error = new RetryLaterError('questions: 503 servico_indisponivel: nobody answering');
    const processor = new InboundProcessor(
      ds,
      () => {
        throw failure;
      },
      { consumer: durable, registry: eventRegistry, maxAttempts: 2 },
    );
    await publishPing(7);
    const consumer = await nc.jetstream().consumers.get(stream, durable);
    const outcomes: string[] = [];
    for (let i = 1; i <= 6; i++) {
      if (i === 5) failure = new Error('a bug, not an outage');
      const msg = await consumer.next({ expires: 5000 });
      expect(msg).not.toBeNull();
      const outcome = await processor.process(msg!);
      outcomes.push(outcome);
      if (outcome === 'term') {
        msg!.term();
        break;
      }
      msg!.nak();
    }
    // four deliveries past maxAttempts while "down", then the first plain failure gives up
    expect(outcomes).toEqual(['nak', 'nak', 'nak', 'nak', 'term']);
    const letters: { reason: string; message: string; deliveries: number }[] = await ds.query(
      `SELECT reason, message, deliveries FROM dead_letter`,
    );
    expect(letters).toEqual([
      { reason: 'falha_no_tratamento', message: 'a bug, not an outage', deliveries: 5 },
    ]);
    expect(await count(ds, `SELECT count(*) AS n FROM inbox`)).toBe(0);
    await ds.destroy();
  });

  it('republishes after a relay crash between publish and mark, and the consumer applies it once', async () => {
    const ds = await openPingDatabase(db.url);
    await ensureStreams(await nc.jetstreamManager());
    const envelope = makeEnvelope(PING, 'p1', { n: 7, note: 'relayed' });
    await ds.transaction((m) => appendToOutbox(m, [envelope]));

    const crashing = new OutboxRelay(ds, nc.jetstream(), {
      schema: PING_SCHEMA,
      databaseUrl: db.url,
      afterPublish: () => {
        throw new Error('crash after publish, before mark');
      },
    });
    await crashing.start();
    const jsm = await nc.jetstreamManager();
    await waitFor(async () => (await jsm.streams.info(STREAMS.agentEvents.name)).state.messages === 1, {
      what: 'first publish',
    });
    await crashing.stop();
    expect(await crashing.backlog()).toBe(1); // the row was not marked

    // A consumer service runs downstream; the restarted relay publishes the row again.
    const service = await startPingService(nc, db.url, { relay: false });
    const restarted = new OutboxRelay(ds, nc.jetstream(), { schema: PING_SCHEMA, databaseUrl: db.url });
    await restarted.start();
    await waitFor(async () => (await restarted.backlog()) === 0, { what: 'row marked after restart' });
    await waitFor(async () => (await count(ds, `SELECT count(*) AS n FROM effects`)) === 1, {
      what: 'effect applied',
    });
    expect((await jsm.streams.info(STREAMS.agentEvents.name)).state.messages).toBe(1); // JetStream dropped the duplicate

    // Past the duplicate window the broker would keep a second copy: the inbox still applies once.
    await nc.jetstream().publish(eventSubject(PING, 'p1'), encodeJson(envelope));
    await waitFor(
      async () =>
        (await count(ds, `SELECT count(*) AS n FROM inbox`)) === 1 &&
        service.server.consumerRunners[0]!.handled === 2,
      {
        what: 'redelivered copy handled',
      },
    );
    expect(await count(ds, `SELECT count(*) AS n FROM effects`)).toBe(1);
    await restarted.stop();
    await service.close();
    await ds.destroy();
  });

  it('with two services (two consumers, two relays) applies and publishes each of 1,000 events once', async () => {
    const a = await startPingService(nc, db.url);
    const nc2 = await connect({ servers: nats.url });
    const b = await startPingService(nc2, db.url);
    const collector = await EventCollector.start(nc, STREAMS.openqEvents.name, `${PONGED}.*`);
    const total = 1000;
    await Promise.all(Array.from({ length: total }, (_, i) => publishPing(i, `p${i % 7}`)));
    // Every effect row writes one outbox event; both relays race to publish them.
    const pongs = await collector.waitForType(PONGED, total, 60_000);
    const ds = await openPingDatabase(db.url);
    await waitFor(
      async () => (await count(ds, `SELECT count(*) AS n FROM outbox WHERE published_at IS NULL`)) === 0,
      { what: 'outbox drained' },
    );
    expect(await count(ds, `SELECT count(*) AS n FROM effects`)).toBe(total);
    expect(await count(ds, `SELECT count(DISTINCT n) AS n FROM effects`)).toBe(total);
    const jsm = await nc.jetstreamManager();
    expect((await jsm.streams.info(STREAMS.openqEvents.name)).state.messages).toBe(total);
    expect(new Set(pongs.map((e) => e.eventId)).size).toBe(total);
    expect(pongs).toHaveLength(total);
    // both replicas did real work
    expect(a.server.consumerRunners[0]!.handled).toBeGreaterThan(0);
    expect(b.server.consumerRunners[0]!.handled).toBeGreaterThan(0);
    collector.stop();
    await a.close();
    await b.close();
    await nc2.close();
    await ds.destroy();
  });

  it('terminates and dead-letters poison messages with their reason, and keeps consuming', async () => {
    const service = await startPingService(nc, db.url);
    const js = nc.jetstream();
    await js.publish(eventSubject(PING, 'p1'), new TextEncoder().encode('{not json'));
    await js.publish(eventSubject(PING, 'p1'), encodeJson(makeEnvelope(PING, 'p1', { n: 'one', note: 'x' })));
    await js.publish(
      eventSubject(PING, 'p1'),
      encodeJson(makeEnvelope(PING, 'p1', { n: 1, note: 'x', extra: true })),
    );
    await js.publish(
      eventSubject(PING, 'p2'),
      encodeJson(makeEnvelope(PING, 'p1', { n: 1, note: 'wrong subject' })),
    );
    await publishPing(42);
    const ds = await openPingDatabase(db.url);
    await waitFor(async () => (await count(ds, `SELECT count(*) AS n FROM effects WHERE n = 42`)) === 1, {
      what: 'good message after poison',
    });
    await waitFor(async () => (await count(ds, `SELECT count(*) AS n FROM dead_letter`)) === 4, {
      what: '4 dead letters',
    });
    const letters: { reason: string; message: string }[] = await ds.query(
      `SELECT reason, message FROM dead_letter ORDER BY stream_seq`,
    );
    expect(letters.map((l) => l.reason)).toEqual([
      'json_invalido',
      'payload_invalido',
      'payload_invalido',
      'envelope_invalido',
    ]);
    expect(letters[1]!.message).toMatch(/^n:/);
    expect(letters[2]!.message).toMatch(/^extra:/);
    // terminated, not redelivered: the consumer has nothing pending
    const info = await (
      await nc.jetstreamManager()
    ).consumers.info(STREAMS.agentEvents.name, 'testsvc__agent_test_ping');
    expect(info.num_ack_pending + info.num_pending).toBe(0);
    await service.close();
    await ds.destroy();
  });

  it('answers request/reply with the reply envelope, validation errors, refusals, timeouts and absence', async () => {
    const service = await startPingService(nc, db.url);
    const rpc = new RpcClient(nc, 2000);
    expect(await rpc.request('testsvc', 'echo', { text: 'hello' })).toEqual({
      ok: true,
      data: { echoed: 'hello' },
    });
    const invalid = await rpc.request('testsvc', 'echo', { text: 5 });
    expect(invalid).toEqual({
      ok: false,
      error: { statusCode: 400, reason: 'corpo_invalido', message: expect.stringMatching(/^text:/) },
    });
    expect(await rpc.request('testsvc', 'echo', { text: 'refuse' })).toEqual({
      ok: false,
      error: { statusCode: 409, reason: 'recusado', message: 'refused on purpose' },
    });
    const timeout = await rpc.request('testsvc', 'slow', { ms: 1500 }, { timeoutMs: 200 });
    expect(timeout).toEqual({
      ok: false,
      error: expect.objectContaining({ statusCode: 504, reason: 'servico_sem_resposta' }),
    });
    const absent = await rpc.request('nobody', 'echo', { text: 'x' });
    expect(absent).toEqual({
      ok: false,
      error: expect.objectContaining({ statusCode: 503, reason: 'servico_indisponivel' }),
    });
    await service.close();
  });

  it('starts twice against the same database and streams (provisioning and migrations are idempotent)', async () => {
    const nc2 = await connect({ servers: nats.url });
    const [a, b] = await Promise.all([startPingService(nc, db.url), startPingService(nc2, db.url)]);
    const c = await startPingService(nc, db.url);
    await publishPing(3);
    const ds = await openPingDatabase(db.url);
    await waitFor(async () => (await count(ds, `SELECT count(*) AS n FROM effects`)) === 1, {
      what: 'effect',
    });
    const migrations: { name: string }[] = await ds.query(`SELECT name FROM migrations ORDER BY id`);
    expect(migrations.map((m) => m.name)).toEqual([
      'MessagingTables1764470000000',
      'EffectsTable1764470000001',
      'ConsumerPositions1796083200000',
    ]);
    const jsm = await nc.jetstreamManager();
    const streams = await jsm.streams.names().next();
    expect(streams.sort()).toEqual([STREAMS.agentEvents.name, STREAMS.openqEvents.name]);
    await Promise.all([a.close(), b.close(), c.close()]);
    await nc2.close();
    await ds.destroy();
  });
});

describe('batches: several messages in one transaction, each with its own guarantees', () => {
  /** A consumer with the transport's order check, fed by hand: the test decides what goes in a batch. */
  async function batchSetup(handler?: (n: number, ctx: EventContext) => Promise<void>) {
    const ds = await openPingDatabase(db.url);
    const jsm = await nc.jetstreamManager();
    await ensureStreams(jsm);
    const { stream, durable } = await ensureEventConsumer(jsm, 'testsvc', PING, {
      ackWaitMs: 30_000,
      maxDeliver: -1,
      maxAckPending: 256,
    });
    const processor = new InboundProcessor(
      ds,
      async (data, ctx) => {
        const { n } = data as { n: number };
        if (handler) await handler(n, ctx);
        await ctx.manager.query(
          `INSERT INTO effects (event_id, n, applied_by, project_id) VALUES ($1, $2, 'b', $3)`,
          [ctx.envelope.eventId, n, ctx.envelope.projectId],
        );
        ctx.outbox.event(PONGED, ctx.envelope.projectId, { n });
      },
      {
        consumer: durable,
        registry: eventRegistry,
        order: new SubjectOrder(durable, { jsm, stream, ackFloor: 0 }),
      },
    );
    const consumer = await nc.jetstream().consumers.get(stream, durable);
    const fetch = async (count: number): Promise<JsMsg[]> => {
      const msgs: JsMsg[] = [];
      const batch = await consumer.fetch({ max_messages: count, expires: 5000 });
      for await (const m of batch) {
        msgs.push(m);
        if (msgs.length === count) break;
      }
      return msgs;
    };
    const settle = (msgs: JsMsg[], outcomes: string[]) =>
      msgs.forEach((m, i) => processor.settle(m, outcomes[i] as 'ack'));
    return { ds, processor, fetch, settle, durable };
  }

  it('applies the good messages of a batch once and dead-letters the poison in the middle with its reason', async () => {
    const { ds, processor, fetch, settle } = await batchSetup();
    await publishPing(1, 'p1');
    await nc
      .jetstream()
      .publish(eventSubject(PING, 'p1'), encodeJson(makeEnvelope(PING, 'p1', { n: 'two', note: 'x' })));
    await publishPing(3, 'p1');
    await publishPing(4, 'p2');
    const msgs = await fetch(4);
    const outcomes = await processor.processBatch(msgs);
    settle(msgs, outcomes);
    expect(outcomes).toEqual(['ack', 'term', 'ack', 'ack']);
    const effects: { n: number }[] = await ds.query(`SELECT n FROM effects ORDER BY applied_order`);
    expect(effects.map((e) => e.n)).toEqual([1, 3, 4]);
    expect(await count(ds, `SELECT count(*) AS n FROM outbox`)).toBe(3);
    const letters: { reason: string; stream_seq: string }[] = await ds.query(
      `SELECT reason, stream_seq FROM dead_letter`,
    );
    expect(letters).toEqual([{ reason: 'payload_invalido', stream_seq: '2' }]);
    // every position passed what was settled
    const positions: { subject: string; last_seq: string }[] = await ds.query(
      `SELECT subject, last_seq FROM consumer_position ORDER BY subject`,
    );
    expect(positions).toEqual([
      { subject: eventSubject(PING, 'p1'), last_seq: '3' },
      { subject: eventSubject(PING, 'p2'), last_seq: '4' },
    ]);
    await ds.destroy();
  });

  it('when a handler throws for one message, applies the others and retries that one, its subject waiting behind it', async () => {
    let failing = true;
    const { ds, processor, fetch, settle } = await batchSetup(async (n) => {
      if (n === 2 && failing) throw new Error('a bug for message 2');
    });
    for (const [n, p] of [
      [1, 'p1'],
      [2, 'p1'],
      [3, 'p1'],
      [4, 'p2'],
      [5, 'p2'],
    ] as const)
      await publishPing(n, p);
    const msgs = await fetch(5);
    const outcomes = await processor.processBatch(msgs);
    expect(outcomes).toEqual(['ack', 'nak', 'defer', 'ack', 'ack']);
    const nums = async () =>
      ((await ds.query(`SELECT n FROM effects ORDER BY applied_order`)) as { n: number }[]).map((e) => e.n);
    expect(await nums()).toEqual([1, 4, 5]);
    settle(msgs, outcomes);
    // The failed message comes back after its backoff; the deferred one after its short nak.
    failing = false;
    const again = await fetch(2);
    expect(again.map((m) => m.seq).sort()).toEqual([2, 3]);
    expect(Math.min(...again.map((m) => m.info.deliveryCount))).toBe(2);
    const second = await processor.processBatch(again);
    settle(again, second);
    expect(second).toEqual(['ack', 'ack']);
    expect(await nums()).toEqual([1, 4, 5, 2, 3]);
    expect(await count(ds, `SELECT count(*) AS n FROM outbox`)).toBe(5);
    await ds.destroy();
  });

  it('acks redelivered duplicates of a batch without effect, applies the new ones, and moves the positions past both, in one transaction', async () => {
    const { ds, processor, fetch, settle } = await batchSetup();
    for (let n = 1; n <= 4; n++) await publishPing(n, n % 2 ? 'p1' : 'p2');
    const first = await fetch(4);
    expect(await processor.processBatch(first)).toEqual(['ack', 'ack', 'ack', 'ack']);
    for (const m of first) m.nak(); // withhold the acks: all four come back
    for (let n = 5; n <= 6; n++) await publishPing(n, n % 2 ? 'p1' : 'p2');
    const second = await fetch(6);
    expect(second.filter((m) => m.info.deliveryCount === 2)).toHaveLength(4);
    const transactions = jest.spyOn(ds, 'transaction');
    const outcomes = await processor.processBatch(second);
    settle(second, outcomes);
    expect(outcomes).toEqual(second.map(() => 'ack'));
    expect(transactions).toHaveBeenCalledTimes(1);
    expect(await count(ds, `SELECT count(*) AS n FROM effects`)).toBe(6);
    expect(await count(ds, `SELECT count(DISTINCT n) AS n FROM effects`)).toBe(6);
    expect(await count(ds, `SELECT count(*) AS n FROM outbox`)).toBe(6);
    expect(await count(ds, `SELECT count(*) AS n FROM inbox`)).toBe(6);
    const positions: { last_seq: string }[] = await ds.query(
      `SELECT last_seq FROM consumer_position ORDER BY subject`,
    );
    expect(positions.map((p) => Number(p.last_seq))).toEqual([5, 6]);
    await ds.destroy();
  });

  it('leaves out (defer) a message whose subject has an earlier message pending outside the batch', async () => {
    const { ds, processor, fetch, settle } = await batchSetup();
    for (let n = 1; n <= 4; n++) await publishPing(n, n === 4 ? 'p2' : 'p1');
    const [a, b, c, d] = await fetch(4);
    // b is held elsewhere (another replica): c must not overtake it; a and d go.
    const outcomes = await processor.processBatch([a!, c!, d!]);
    expect(outcomes).toEqual(['ack', 'defer', 'ack']);
    settle([a!, d!], ['ack', 'ack']);
    expect(await processor.processBatch([b!, c!])).toEqual(['ack', 'ack']);
    settle([b!, c!], ['ack', 'ack']);
    const effects: { n: number }[] = await ds.query(
      `SELECT n FROM effects WHERE project_id = 'p1' ORDER BY applied_order`,
    );
    expect(effects.map((e) => e.n)).toEqual([1, 2, 3]);
    await ds.destroy();
  });

  it("writes each message's events with its own correlation, causation and trace context", async () => {
    const { ds, processor, fetch, settle } = await batchSetup();
    const traces = [
      '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01',
      '00-1bf7651916cd43dd8448eb211c80319d-c7ad6b7169203332-01',
    ];
    const sent: { eventId: string; correlationId: string }[] = [];
    for (const [i, traceparent] of traces.entries()) {
      const envelope = makeEnvelope(PING, 'p1', { n: i, note: 'x' }, { correlationId: `corr-${i}` });
      const h = headers();
      h.set('traceparent', traceparent);
      await nc
        .jetstream()
        .publish(eventSubject(PING, 'p1'), encodeJson(envelope), { msgID: envelope.eventId, headers: h });
      sent.push({ eventId: envelope.eventId, correlationId: envelope.correlationId });
    }
    const msgs = await fetch(2);
    settle(msgs, await processor.processBatch(msgs));
    const rows: {
      envelope: { correlationId: string; causationId: string; data: { n: number } };
      headers: Record<string, string>;
    }[] = await ds.query(`SELECT envelope, headers FROM outbox ORDER BY id`);
    expect(
      rows.map((r) => [
        r.envelope.data.n,
        r.envelope.correlationId,
        r.envelope.causationId,
        r.headers.traceparent,
      ]),
    ).toEqual([
      [0, 'corr-0', sent[0]!.eventId, traces[0]],
      [1, 'corr-1', sent[1]!.eventId, traces[1]],
    ]);
    await ds.destroy();
  });
});
