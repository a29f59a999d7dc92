import { connect, headers, type JsMsg, type NatsConnection } from 'nats';
import { defineMessage, eventSubject, makeEnvelope, MessageRegistry, STREAMS } from '@openq/contracts';
import {
  createTestDatabase,
  EventCollector,
  startNatsServer,
  waitFor,
  type TestDatabase,
  type TestNatsServer,
} from '@openq/testing';
import { decodeText, encodeJson } from './codec';
import { InboundProcessor, type EventContext, type InboundOptions } from './inbound';
import { OutboxRelay } from './outbox-relay';
import { ensureEventConsumer, ensureStreams } from './provisioning';
import { RpcClient } from './rpc-client';
import { RetryLaterError } from './retry-later';
import { SubjectOrder } from './subject-order';
import { currentScope } from './trace-context';
import {
  openPingDatabase,
  PING,
  PING_SCHEMA,
  PingData,
  PONGED,
  eventRegistry,
  startPingService,
  publishPing as publishPingOn,
  countOf,
  pingDurable,
} from './__fixtures__/ping-service.fixture';
import { appendToOutbox } from './outbox';
import { AFTER_COMMIT_GRACE_MS, OutboxPublisher } from './outbox-publisher';

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

const publishPing = (n: number, projectId = 'p1', note = 'hi') => publishPingOn(nc, n, projectId, note);
const count = countOf;

describe('exactly-once delivery over real JetStream and PostgreSQL', () => {
  it('applies a message delivered 5 times (ack withheld) exactly once, with one outbox event', async () => {
    const ds = await openPingDatabase(db.url);
    const jsm = await nc.jetstreamManager();
    await ensureStreams(jsm);
    const { stream, durable } = await pingDurable(jsm, 'testsvc');
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
    const { stream, durable } = await pingDurable(jsm, 'testsvc');
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
      error: { statusCode: 409, reason: 'pergunta_ja_respondida', message: 'refused on purpose' },
    });
    // a group committer whose queue is full: 503 sobrecarregado, and when to come back
    const crowd = await Promise.all([
      rpc.request('testsvc', 'echo', { text: 'crowd' }),
      rpc.request('testsvc', 'echo', { text: 'crowd' }),
    ]);
    const [taken, overloaded] = crowd.sort((a) => (a.ok ? -1 : 1));
    expect(taken).toEqual({ ok: true, data: { echoed: 'crowd' } });
    expect(overloaded).toEqual({
      ok: false,
      error: {
        statusCode: 503,
        reason: 'sobrecarregado',
        message: expect.stringContaining('try again in 2 s'),
        retryAfterSeconds: 2,
      },
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
    // For a caller that relays the answer: the data's bytes, not parsed; failures as with request.
    const bytes = await rpc.requestBytes('testsvc', 'echo', { text: 'h\u00e9llo "q"' });
    expect(bytes.ok && new TextDecoder().decode(bytes.bytes)).toBe('{"echoed":"h\u00e9llo \\"q\\""}');
    expect(await rpc.requestBytes('testsvc', 'echo', { text: 'refuse' })).toEqual({
      ok: false,
      error: { statusCode: 409, reason: 'pergunta_ja_respondida', message: 'refused on purpose' },
    });
    expect(await rpc.requestBytes('nobody', 'echo', { text: 'x' })).toEqual({
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
      'OutboxAfterCommit1796169600000',
    ]);
    const jsm = await nc.jetstreamManager();
    const streams = await jsm.streams.names().next();
    expect(streams.sort()).toEqual([STREAMS.agentEvents.name, STREAMS.openqEvents.name]);
    await Promise.all([a.close(), b.close(), c.close()]);
    await nc2.close();
    await ds.destroy();
  });

  it("publishes a commit's rows right after it, so the relay publishes none of them", async () => {
    const service = await startPingService(nc, db.url);
    const collector = await EventCollector.start(nc, STREAMS.openqEvents.name, `${PONGED}.*`);
    const total = 50;
    await Promise.all(Array.from({ length: total }, (_, i) => publishPing(i, `p${i % 3}`)));
    await collector.waitForType(PONGED, total, 30_000);
    const publisher = service.server.outboxPublisher!;
    await waitFor(async () => publisher.published === total, { what: 'rows marked by the publisher' });
    const ds = await openPingDatabase(db.url);
    expect(await count(ds, `SELECT count(*) AS n FROM outbox WHERE published_at IS NULL`)).toBe(0);
    expect(service.server.outboxRelay!.published).toBe(0);
    // Published as the writer serialised it (the envelope's own key order), not read back from the
    // row (jsonb orders keys by length: "data" first).
    const jsm = await nc.jetstreamManager();
    const stored = await jsm.streams.getMessage(STREAMS.openqEvents.name, {
      last_by_subj: eventSubject(PONGED, 'p0'),
    });
    expect(Object.keys(JSON.parse(decodeText(stored.data)) as object)).toEqual(
      Object.keys(makeEnvelope(PONGED, 'p0', {})),
    );
    collector.stop();
    await service.close();
    await ds.destroy();
  });

  it('a crash between commit and publish: the relay publishes the committed rows after the grace period', async () => {
    const service = await startPingService(nc, db.url, {
      beforeAfterCommitPublish: () => {
        throw new Error('dies after COMMIT, before publishing');
      },
    });
    const collector = await EventCollector.start(nc, STREAMS.openqEvents.name, `${PONGED}.*`);
    await publishPing(1);
    await publishPing(2);
    const pongs = await collector.waitForType(PONGED, 2, 30_000);
    expect(pongs.map((p) => (p.data as { n: number }).n)).toEqual([1, 2]);
    await waitFor(async () => (await service.server.outboxRelay!.backlog()) === 0, { what: 'relay marked' });
    expect(service.server.outboxRelay!.published).toBe(2);
    expect(service.server.outboxPublisher!.published).toBe(0);
    collector.stop();
    await service.close();
  });

  it("marks the rows it published in the next commit's outbox insert, and on their own when that commit rolls back", async () => {
    await ensureStreams(await nc.jetstreamManager());
    const ds = await openPingDatabase(db.url);
    // A mark delay no test waits for: a row gets marked only by an outbox insert, or by idle().
    const publisher = new OutboxPublisher(ds, nc.jetstream(), { service: 'marks', markDelayMs: 600_000 });
    publisher.attach();
    const publishedAt = async (eventId: string) =>
      (
        (await ds.query(`SELECT published_at FROM outbox WHERE event_id = $1`, [eventId])) as {
          published_at: Date | null;
        }[]
      )[0]?.published_at ?? null;
    const a = makeEnvelope(PONGED, 'p7', { n: 1 });
    const b = makeEnvelope(PONGED, 'p8', { n: 2 });
    const c = makeEnvelope(PONGED, 'p9', { n: 3 });
    await ds.transaction((m) => appendToOutbox(m, [a]));
    await waitFor(async () => publisher.awaitingMark === 1, { what: 'a published and acked' });
    expect(await publishedAt(a.eventId)).toBeNull();

    // The next commit's insert marks `a` in its own statement.
    await ds.transaction((m) => appendToOutbox(m, [b]));
    expect(await publishedAt(a.eventId)).not.toBeNull();
    expect(publisher.published).toBe(1);
    await waitFor(async () => publisher.awaitingMark === 1, { what: 'b published and acked' });

    // A commit that takes `b` to mark and rolls back gives it back; idle() then marks it alone.
    await expect(
      ds.transaction(async (m) => {
        await appendToOutbox(m, [c]);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await publishedAt(b.eventId)).toBeNull();
    expect(publisher.awaitingMark).toBe(1);
    await publisher.idle();
    expect(await publishedAt(b.eventId)).not.toBeNull();
    expect(publisher.published).toBe(2);
    expect(await ds.query(`SELECT count(*)::int AS n FROM outbox WHERE event_id = $1`, [c.eventId])).toEqual([
      { n: 0 },
    ]);
    await publisher.detach();
    await ds.destroy();
  });

  it('sends an earlier unpublished row of the subject before its own, so stream order follows commit order', async () => {
    await ensureStreams(await nc.jetstreamManager());
    const js = nc.jetstream();
    // "Process" 1 commits a row and dies before publishing it; "process" 2 then commits the next row of the subject.
    const ds1 = await openPingDatabase(db.url);
    const dying = new OutboxPublisher(ds1, js, {
      service: 'one',
      beforePublish: () => {
        throw new Error('dies after COMMIT');
      },
    });
    dying.attach();
    const ds2 = await openPingDatabase(db.url);
    const alive = new OutboxPublisher(ds2, js, { service: 'two' });
    alive.attach();
    const first = makeEnvelope(PONGED, 'p5', { n: 1 });
    const second = makeEnvelope(PONGED, 'p5', { n: 2 });
    const elsewhere = makeEnvelope(PONGED, 'p6', { n: 3 });
    await ds1.transaction((m) => appendToOutbox(m, [first, elsewhere]));
    await ds2.transaction((m) => appendToOutbox(m, [second]));
    await alive.idle();

    const jsm = await nc.jetstreamManager();
    const stored = await readSubject(jsm, eventSubject(PONGED, 'p5'));
    expect(stored).toEqual([first.eventId, second.eventId]);
    // Another subject's row is not the second writer's business: it waits for the relay.
    expect(await readSubject(jsm, eventSubject(PONGED, 'p6'))).toEqual([]);
    // Only its own row is marked by the second writer; the first writer's row is the relay's to mark.
    const unpublished: { event_id: string }[] = await ds2.query(
      `SELECT event_id FROM outbox WHERE published_at IS NULL ORDER BY id`,
    );
    expect(unpublished.map((r) => r.event_id)).toEqual([first.eventId, elsewhere.eventId]);
    const relay = new OutboxRelay(ds2, js, { schema: PING_SCHEMA, databaseUrl: db.url, pollIntervalMs: 100 });
    await relay.start();
    await waitFor(async () => (await relay.backlog()) === 0, {
      what: 'relay publishes after the grace',
      timeoutMs: AFTER_COMMIT_GRACE_MS + 10_000,
    });
    expect(await readSubject(jsm, eventSubject(PONGED, 'p5'))).toEqual([first.eventId, second.eventId]);
    expect(await readSubject(jsm, eventSubject(PONGED, 'p6'))).toEqual([elsewhere.eventId]);
    await relay.stop();
    await dying.detach();
    await alive.detach();
    await ds1.destroy();
    await ds2.destroy();
  });
});

describe('batches: several messages in one transaction, each with its own guarantees', () => {
  /** A consumer with the transport's order check, fed by hand: the test decides what goes in a batch. */
  async function batchSetup(
    handler?: (n: number, ctx: EventContext) => Promise<void>,
    options: Pick<InboundOptions, 'prepare' | 'registry' | 'wholeBatch'> & {
      type?: string;
      publisher?: boolean;
    } = {},
  ) {
    const ds = await openPingDatabase(db.url);
    const jsm = await nc.jetstreamManager();
    await ensureStreams(jsm);
    const publisher = options.publisher
      ? new OutboxPublisher(ds, nc.jetstream(), { service: 'testsvc' })
      : undefined;
    publisher?.attach();
    const { stream, durable } = await ensureEventConsumer(jsm, 'testsvc', options.type ?? PING, {
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
          `INSERT INTO effects (event_id, n, applied_by, project_id) VALUES ($1, $2, $3, $4)`,
          [ctx.envelope.eventId, n, ctx.prepared ?? 'b', ctx.envelope.projectId],
        );
        ctx.outbox.event(PONGED, ctx.envelope.projectId, { n });
      },
      {
        consumer: durable,
        registry: options.registry ?? eventRegistry,
        order: new SubjectOrder(durable, { jsm, stream, ackFloor: 0 }),
        prepare: options.prepare,
        wholeBatch: options.wholeBatch,
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
    return { ds, processor, fetch, settle, durable, publisher };
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

  it("publishes a batch's rows right after its commit, with each message's trace headers, in stream order per subject", async () => {
    const { ds, processor, fetch, settle, publisher } = await batchSetup(undefined, { publisher: true });
    const traceOf = (n: number) =>
      `00-0af7651916cd43dd8448eb211c8031${String(n).padStart(2, '0')}-b7ad6b7169203331-01`;
    for (let n = 1; n <= 6; n++) {
      const envelope = makeEnvelope(PING, n % 2 ? 'p1' : 'p2', { n, note: 'x' });
      const h = headers();
      h.set('traceparent', traceOf(n));
      await nc.jetstream().publish(eventSubject(PING, envelope.projectId), encodeJson(envelope), {
        msgID: envelope.eventId,
        headers: h,
      });
    }
    const msgs = await fetch(6);
    const outcomes = await processor.processBatch(msgs);
    settle(msgs, outcomes);
    expect(outcomes).toEqual(msgs.map(() => 'ack'));
    await publisher!.idle();
    // Handed to the publisher (the relay's grace set), published and marked by it: no relay runs here.
    expect(publisher!.published).toBe(6);
    const rows: {
      event_id: string;
      subject: string;
      handed: boolean;
      published: boolean;
      n: number;
      traceparent: string;
    }[] = await ds.query(
      `SELECT event_id, subject, relay_after > created_at AS handed, published_at IS NOT NULL AS published,
                (envelope->'data'->>'n')::int AS n, headers->>'traceparent' AS traceparent
           FROM outbox ORDER BY id`,
    );
    expect(rows.map((r) => [r.n, r.handed, r.published, r.traceparent])).toEqual(
      [1, 3, 5, 2, 4, 6].map((n) => [n, true, true, traceOf(n)]),
    );
    const jsm = await nc.jetstreamManager();
    for (const project of ['p1', 'p2']) {
      const subject = eventSubject(PONGED, project);
      expect(await readSubject(jsm, subject)).toEqual(
        rows.filter((r) => r.subject === subject).map((r) => r.event_id),
      );
    }
    await publisher!.detach();
    await ds.destroy();
  });

  it("runs each message's before-transaction step before the batch's transaction, and again when the batch splits", async () => {
    const prepares = new Map<number, number>();
    const seen: { n: number; transactions: number; correlationId: string | null | undefined }[] = [];
    const spied: { transactions?: jest.SpyInstance } = {};
    let failOn = 0;
    // Each effect is stored with what the step returned for the attempt that applied it (`ctx.prepared`).
    const { ds, processor, fetch, settle } = await batchSetup(
      async (n) => {
        if (n === failOn) throw new Error(`a bug for message ${n}`);
      },
      {
        prepare: async (envelope) => {
          const { n } = envelope.data as { n: number };
          const attempt = (prepares.get(n) ?? 0) + 1;
          prepares.set(n, attempt);
          seen.push({
            n,
            transactions: spied.transactions!.mock.calls.length,
            correlationId: currentScope()?.correlationId,
          });
          if (n === 7 && attempt === 1) throw new RetryLaterError('the owner is restarting');
          return `prep-${n}-${attempt}`;
        },
      },
    );
    const transactions = (spied.transactions = jest.spyOn(ds, 'transaction'));
    const effects = async () =>
      (await ds.query(`SELECT n, applied_by FROM effects ORDER BY n`)) as { n: number; applied_by: string }[];

    // One batch: every step first, then one transaction, each handler given its own message's result.
    for (const [n, p] of [
      [1, 'p1'],
      [2, 'p1'],
      [3, 'p2'],
    ] as const)
      await publishPing(n, p);
    const first = await fetch(3);
    const outcomes = await processor.processBatch(first);
    settle(first, outcomes);
    expect(outcomes).toEqual(['ack', 'ack', 'ack']);
    expect(seen.map((s) => [s.n, s.transactions])).toEqual([
      [1, 0],
      [2, 0],
      [3, 0],
    ]);
    expect(transactions).toHaveBeenCalledTimes(1);
    const envelopes = first.map(
      (m) => JSON.parse(new TextDecoder().decode(m.data)) as { correlationId: string },
    );
    expect(seen.map((s) => s.correlationId)).toEqual(envelopes.map((e) => e.correlationId));
    expect(await effects()).toEqual([1, 2, 3].map((n) => ({ n, applied_by: `prep-${n}-1` })));

    // A handler throws: the batch splits, and each message alone runs its step again before its transaction.
    seen.length = 0;
    failOn = 5;
    for (const n of [4, 5, 6]) await publishPing(n, 'p1');
    const second = await fetch(3);
    const split = await processor.processBatch(second);
    settle(second, split);
    expect(split).toEqual(['ack', 'nak', 'defer']);
    expect(seen.map((s) => s.n)).toEqual([4, 5, 6, 4, 5]);
    expect((await effects()).slice(3)).toEqual([{ n: 4, applied_by: 'prep-4-2' }]);

    // A step that throws splits the batch too; alone, the message's step is run again.
    failOn = 0;
    await publishPing(7, 'p2');
    await publishPing(8, 'p3');
    const third = await fetch(4); // 5 and 6 are back after their naks, with 7 and 8
    const last = await processor.processBatch(third);
    settle(third, last);
    expect(last).toEqual(third.map(() => 'ack'));
    expect(prepares.get(7)).toBe(2); // failed in the batch, then alone
    expect(prepares.get(8)).toBe(2); // ran beside 7's in the batch, then alone after the split
    expect((await effects()).map((e) => e.applied_by)).toEqual([
      'prep-1-1',
      'prep-2-1',
      'prep-3-1',
      'prep-4-2',
      expect.stringMatching(/^prep-5-/),
      expect.stringMatching(/^prep-6-/),
      'prep-7-2',
      'prep-8-2',
    ]);
    await ds.destroy();
  });

  it("hands a WHOLE_BATCH handler the batch's new messages in one call, each unit with its own events, and one at a time after a split", async () => {
    const calls: number[][] = [];
    let failOn = 0;
    const { ds, processor, fetch, settle } = await batchSetup(undefined, {
      wholeBatch: async (units) => {
        calls.push(units.map((u) => (u.data as { n: number }).n));
        if (units.some((u) => (u.data as { n: number }).n === failOn)) throw new Error(`a bug for ${failOn}`);
        const { manager } = units[0]!.event;
        // One statement for the group: what a whole-batch handler is for.
        await manager.query(
          `INSERT INTO effects (event_id, n, applied_by, project_id) SELECT * FROM unnest($1::uuid[], $2::int[], $3::text[], $4::text[])`,
          [
            units.map((u) => u.event.envelope.eventId),
            units.map((u) => (u.data as { n: number }).n),
            units.map(() => 'whole'),
            units.map((u) => u.event.envelope.projectId),
          ],
        );
        for (const { data, event } of units) event.outbox.event(PONGED, event.envelope.projectId, data);
      },
    });
    const effects = async () =>
      (await ds.query(`SELECT n FROM effects ORDER BY n`)).map((r: { n: number }) => r.n);

    // A redelivered duplicate (the same envelope again) is no unit: the inbox had it.
    const again = makeEnvelope(PING, 'p1', { n: 1, note: 'hi' });
    await nc.jetstream().publish(eventSubject(PING, 'p1'), encodeJson(again));
    const first = await fetch(1);
    settle(first, await processor.processBatch(first));
    expect(calls).toEqual([[1]]); // alone: one call with one unit
    await nc.jetstream().publish(eventSubject(PING, 'p1'), encodeJson(again));
    for (const [n, p] of [
      [2, 'p2'],
      [3, 'p1'],
      [4, 'p2'],
    ] as const)
      await publishPing(n, p);
    const batch = await fetch(4);
    const outcomes = await processor.processBatch(batch);
    settle(batch, outcomes);
    expect(outcomes).toEqual(['ack', 'ack', 'ack', 'ack']);
    // One call for the three new ones, by subject then stream order.
    expect(calls[1]).toEqual([3, 2, 4]);
    expect(await effects()).toEqual([1, 2, 3, 4]);
    // Each unit's events carry its own message's correlation id.
    const pongs = (await ds.query(
      `SELECT envelope->'data'->>'n' AS n, envelope->>'correlationId' AS c FROM outbox ORDER BY id`,
    )) as { n: string; c: string }[];
    const sent = batch.map(
      (m) => JSON.parse(new TextDecoder().decode(m.data)) as { data: { n: number }; correlationId: string },
    );
    for (const envelope of sent.filter((e) => e.data.n > 1))
      expect(pongs.find((p) => p.n === String(envelope.data.n))?.c).toBe(envelope.correlationId);
    expect(pongs).toHaveLength(4);

    // The handler throws for one of them: nothing of the batch is kept, and alone the others go.
    failOn = 6;
    for (const n of [5, 6, 7]) await publishPing(n, `q${n}`);
    const third = await fetch(3);
    const split = await processor.processBatch(third);
    settle(third, split);
    expect(split).toEqual(['ack', 'nak', 'ack']);
    expect(calls.slice(2)).toEqual([[5, 6, 7], [5], [6], [7]]);
    expect(await effects()).toEqual([1, 2, 3, 4, 5, 7]);
    await ds.destroy();
  });

  it("runs a batch's before-transaction steps side by side, each result to its own message", async () => {
    const size = 10;
    let started = 0;
    let allStarted!: () => void;
    const together = new Promise<void>((resolve) => (allStarted = resolve));
    // Each step waits until every step of the batch has started: run one after the other, the
    // first would wait forever (the race below turns that into a failure).
    const { ds, processor, fetch, settle } = await batchSetup(undefined, {
      prepare: async (envelope) => {
        if (++started === size) allStarted();
        await Promise.race([
          together,
          new Promise((_, reject) => setTimeout(() => reject(new Error('steps ran one by one')), 5000)),
        ]);
        return `prep-${(envelope.data as { n: number }).n}`;
      },
    });
    for (let n = 1; n <= size; n++) await publishPing(n, `p${n % 3}`);
    const batch = await fetch(size);
    const outcomes = await processor.processBatch(batch);
    settle(batch, outcomes);
    expect(outcomes).toEqual(batch.map(() => 'ack'));
    expect(started).toBe(size);
    const rows = (await ds.query(`SELECT n, applied_by FROM effects ORDER BY n`)) as {
      n: number;
      applied_by: string;
    }[];
    expect(rows).toEqual(Array.from({ length: size }, (_, i) => ({ n: i + 1, applied_by: `prep-${i + 1}` })));
    await ds.destroy();
  });

  it('tells the before-transaction step whether the message was applied already (a redelivery)', async () => {
    const said: boolean[] = [];
    const { ds, processor, fetch, settle } = await batchSetup(undefined, {
      prepare: async (_envelope, applied) => {
        said.push(await applied());
        return 'prepared';
      },
    });
    await publishPing(1, 'p1');
    const [msg] = await fetch(1);
    expect(await processor.process(msg!)).toBe('ack');
    // The same message again, as JetStream redelivers one whose ack was lost: applied, no effect.
    expect(await processor.process(msg!)).toBe('ack');
    settle([msg!], ['ack']);
    expect(said).toEqual([false, true]);
    expect(await count(ds, `SELECT count(*) AS n FROM effects`)).toBe(1);
    await ds.destroy();
  });

  it("trusts openq's own events in a batch: no class-validator on a hop between services", async () => {
    const registry = new MessageRegistry([defineMessage(PING, PingData), defineMessage(PONGED, PingData)]);
    const { ds, processor, fetch, settle } = await batchSetup(undefined, { type: PONGED, registry });
    // No `note`: PingData would refuse it from outside (an `agent.*` message is dead-lettered).
    for (const n of [1, 2]) {
      const envelope = makeEnvelope(PONGED, 'p1', { n });
      await nc
        .jetstream()
        .publish(eventSubject(PONGED, 'p1'), encodeJson(envelope), { msgID: envelope.eventId });
    }
    const msgs = await fetch(2);
    const outcomes = await processor.processBatch(msgs);
    settle(msgs, outcomes);
    expect(outcomes).toEqual(['ack', 'ack']);
    expect(await count(ds, `SELECT count(*) AS n FROM effects`)).toBe(2);
    expect(await count(ds, `SELECT count(*) AS n FROM dead_letter`)).toBe(0);
    await ds.destroy();
  });
});
/** The event ids stored on `subject`, in stream order. */
async function readSubject(
  jsm: Awaited<ReturnType<NatsConnection['jetstreamManager']>>,
  subject: string,
): Promise<string[]> {
  const ids: string[] = [];
  for (let seq = 1; ;) {
    try {
      const m = await jsm.streams.getMessage(STREAMS.openqEvents.name, {
        seq,
        next_by_subj: subject,
      } as unknown as { seq: number });
      ids.push(m.header.get('Nats-Msg-Id'));
      seq = m.seq + 1;
    } catch {
      return ids;
    }
  }
}
