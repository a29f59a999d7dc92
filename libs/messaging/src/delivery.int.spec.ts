import { connect, type NatsConnection } from 'nats';
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
import { InboundProcessor } from './inbound';
import { OutboxRelay } from './outbox-relay';
import { ensureEventConsumer, ensureStreams } from './provisioning';
import { RpcClient } from './rpc-client';
import { RetryLaterError } from './retry-later';
import {
  openPingDatabase,
  PING,
  PING_SCHEMA,
  PONGED,
  eventRegistry,
  startPingService,
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
      error: { statusCode: 409, reason: 'recusado', message: 'refused on purpose' },
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
