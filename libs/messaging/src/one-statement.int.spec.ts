import { connect } from 'nats';
import type { DataSource } from 'typeorm';
import { makeEnvelope } from '@openq/contracts';
import { deferWrite, recordStatements } from '@openq/persistence';
import { eachTestNatsAndDatabase, waitFor } from '@openq/testing';
import { InboundProcessor } from './inbound';
import { messagingMetrics } from './metrics';
import { appendToOutbox } from './outbox';
import { OutboxPublisher } from './outbox-publisher';
import { ensureStreams } from './provisioning';
import {
  openPingDatabase,
  PONGED,
  eventRegistry,
  startPingService,
  publishPing as publishPingOn,
  countOf,
  pingDurable,
} from './__fixtures__/ping-service.fixture';

/*
 * A message whose handler only writes (deferred writes, no event) is applied in ONE statement:
 * its claim, position and writes, with no START nor COMMIT (`InboundProcessor.applyInOneStatement`,
 * `inOneStatement`). The guarantees of the usual path hold: once, in order per subject, across
 * replicas and redeliveries. The effects table's plain primary key makes a second application
 * fail, not hide.
 */

const t = eachTestNatsAndDatabase();

beforeEach(async () => {
  messagingMetrics.oneStatementUnits().reset(); // each test counts its own
});

const publishPing = (n: number, projectId: string, note = 'deferred') =>
  publishPingOn(t.nc, n, projectId, note);
const count = countOf;

/** The statements the data source sends while `work` runs. */
const statementsOf = async (ds: DataSource, work: () => Promise<void>) =>
  (await recordStatements(ds, work)).sent;

/** `openq_one_statement_units_total` of the consumers whose name starts with `service`, by outcome. */
async function oneStatementUnits(service: string): Promise<Record<string, number>> {
  const metric = await messagingMetrics.oneStatementUnits().get();
  const byOutcome: Record<string, number> = {};
  for (const v of metric.values)
    if (String(v.labels.consumer).startsWith(service))
      byOutcome[String(v.labels.outcome)] = (byOutcome[String(v.labels.outcome)] ?? 0) + v.value;
  return byOutcome;
}

describe('a message whose handler only writes, applied in one statement', () => {
  it('costs one statement the first time, and a redelivery is acked without effect', async () => {
    const ds = await openPingDatabase(t.db.url);
    const jsm = await t.nc.jetstreamManager();
    await ensureStreams(jsm);
    const { stream, durable } = await pingDurable(jsm, 'onestmt');
    const processor = new InboundProcessor(
      ds,
      (data, ctx) =>
        deferWrite(ctx.manager, `INSERT INTO effects (event_id, n, applied_by) VALUES ($1, $2, 'x')`, [
          ctx.envelope.eventId,
          (data as { n: number }).n,
        ]),
      { consumer: durable, registry: eventRegistry },
    );
    await publishPing(1, 'p1');
    const consumer = await t.nc.jetstream().consumers.get(stream, durable);
    const first = await consumer.next({ expires: 5000 });
    processor.received(first!);
    const sent = await statementsOf(ds, async () => {
      expect(await processor.process(first!)).toBe('ack');
    });
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatch(/^WITH openq_w0 AS \(INSERT INTO effects .*INSERT INTO inbox/s);
    first!.nak(); // withhold the ack: the server delivers it again
    const again = await consumer.next({ expires: 5000 });
    expect(again!.info.redelivered).toBe(true);
    processor.received(again!);
    const resent = await statementsOf(ds, async () => {
      expect(await processor.process(again!)).toBe('ack'); // the usual transaction: seen before
    });
    expect(resent[0]).toBe('START TRANSACTION');
    processor.settle(again!, 'ack');
    expect(await count(ds, `SELECT count(*) AS n FROM effects`)).toBe(1);
    expect(await count(ds, `SELECT count(*) AS n FROM inbox`)).toBe(1);
    expect(await oneStatementUnits('onestmt')).toEqual({ applied: 1 });
    await ds.destroy();
  });

  it('a handler that writes an event is refused at its outbox insert, and the marks it took come back', async () => {
    const ds = await openPingDatabase(t.db.url);
    const jsm = await t.nc.jetstreamManager();
    await ensureStreams(jsm);
    // A mark delay no test waits for: an acked row is marked only by an outbox insert, or by idle().
    const publisher = new OutboxPublisher(ds, t.nc.jetstream(), { service: 'refused', markDelayMs: 600_000 });
    publisher.attach();
    const { stream, durable } = await pingDurable(jsm, 'refused', 5000);
    const processor = new InboundProcessor(
      ds,
      async (data, ctx) => {
        await deferWrite(ctx.manager, `INSERT INTO effects (event_id, n, applied_by) VALUES ($1, $2, 'x')`, [
          ctx.envelope.eventId,
          (data as { n: number }).n,
        ]);
        ctx.outbox.event(PONGED, ctx.envelope.projectId, { n: 1 });
      },
      { consumer: durable, registry: eventRegistry },
    );
    const earlier = makeEnvelope(PONGED, 'p0', { n: 0 });
    await ds.transaction((m) => appendToOutbox(m, [earlier]));
    await waitFor(async () => publisher.awaitingMark === 1, { what: 'an earlier event published and acked' });
    await publishPing(1, 'p1');
    const msg = await (await t.nc.jetstream().consumers.get(stream, durable)).next({ expires: 5000 });
    processor.received(msg!);
    // Tried in one statement: the outbox insert takes the acked row to mark, then is refused.
    expect(await processor.process(msg!)).toBe('ack');
    expect(await oneStatementUnits('refused')).toEqual({ statement: 1 });
    processor.settle(msg!, 'ack');
    expect(await count(ds, `SELECT count(*) AS n FROM effects`)).toBe(1);
    // The usual transaction's insert marked it — or, had the refusal kept it, nobody ever would.
    await publisher.idle();
    expect(await count(ds, `SELECT count(*) AS n FROM outbox WHERE published_at IS NULL`)).toBe(0);
    expect(publisher.published).toBe(2);
    await publisher.detach();
    await ds.destroy();
  });

  it('a type whose handler read takes the usual transaction for its next 1,000 messages, then is tried again', async () => {
    const service = await startPingService(t.nc, t.db.url, { batchSize: 16 });
    const ds = await openPingDatabase(t.db.url);
    await publishPing(0, 'p1', 'read-then-deferred');
    for (let n = 1; n < 1100; n++) await publishPing(n, 'p1');
    await waitFor(async () => (await count(ds, `SELECT count(*) AS n FROM effects`)) === 1100, {
      what: '1,100 effects',
      timeoutMs: 60_000,
    });
    const outcomes = await oneStatementUnits('testsvc');
    expect(outcomes.statement).toBe(1);
    expect(outcomes.applied).toBeGreaterThan(0);
    expect(outcomes.applied).toBeLessThanOrEqual(99); // none of the 1,000 after the refusal
    await service.close();
    await ds.destroy();
  });

  it('applies each of 1,000 messages once and in stream order per subject, alone and then beside a second replica', async () => {
    const projects = 7;
    /** Each subject's messages published one after the other: its stream order is the order of n. */
    const publishRange = (from: number, to: number) =>
      Promise.all(
        Array.from({ length: projects }, async (_, p) => {
          for (let n = from + p; n < to; n += projects) await publishPing(n, `p${p}`);
        }),
      );
    const ds = await openPingDatabase(t.db.url);
    const effects = (n: number) =>
      waitFor(async () => (await count(ds, `SELECT count(*) AS n FROM effects`)) === n, {
        what: `${n} effects`,
        timeoutMs: 60_000,
      });
    const a = await startPingService(t.nc, t.db.url);
    await publishRange(0, 500);
    await effects(500);
    // Alone, every delivery came here: the turns are known, the messages go in one statement.
    const alone = await oneStatementUnits('testsvc');
    expect(alone.applied).toBeGreaterThan(250);
    expect(alone.statement).toBeUndefined(); // the handler never needed a statement of its own
    const nc2 = await connect({ servers: t.nats.url });
    const b = await startPingService(nc2, t.db.url);
    await publishRange(500, 1000);
    await effects(1000);
    expect(await count(ds, `SELECT count(DISTINCT n) AS n FROM effects`)).toBe(1000);
    const out: { project_id: string; n: number }[] = await ds.query(
      `SELECT project_id, n FROM effects ORDER BY applied_order`,
    );
    for (let p = 0; p < projects; p++) {
      const applied = out.filter((r) => r.project_id === `p${p}`).map((r) => r.n);
      expect(applied).toEqual([...applied].sort((x, y) => x - y));
    }
    expect(b.server.consumerRunners[0]!.handled).toBeGreaterThan(0); // both replicas did real work
    await a.close();
    await b.close();
    await nc2.close();
    await ds.destroy();
  });
});
