import { connect, type NatsConnection } from 'nats';
import { eventSubject, makeEnvelope } from '@openq/contracts';
import {
  createTestDatabase,
  startNatsServer,
  waitFor,
  type TestDatabase,
  type TestNatsServer,
} from '@openq/testing';
import { register } from 'prom-client';
import { encodeJson } from './codec';
import { ensureStreams } from './provisioning';
import { openPingDatabase, PING, startPingService } from './__fixtures__/ping-service.fixture';

let nats: TestNatsServer;
let db: TestDatabase;
const connections: NatsConnection[] = [];

beforeEach(async () => {
  nats = await startNatsServer();
  db = await createTestDatabase();
});

afterEach(async () => {
  for (const nc of connections.splice(0)) await nc.close();
  await nats.stop();
  await db.drop();
});

/** A seeded PRNG (mulberry32), so a failing interleaving can be replayed. */
function prng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function replica(maxAckPending = 256): Promise<Awaited<ReturnType<typeof startPingService>>> {
  const nc = await connect({ servers: nats.url });
  connections.push(nc);
  return startPingService(nc, db.url, {
    concurrency: 8,
    sampleIntervalMs: 0,
    relay: false,
    consumers: { ackWaitMs: 30_000, maxDeliver: -1, maxAckPending },
  });
}

describe('stream order per subject, across replicas sharing one durable consumer', () => {
  const seed = Number(process.env.ORDER_SEED ?? Date.now() % 100_000);

  /** Transactions of this process that took 2 or more messages so far. */
  async function batchesOfSeveral(): Promise<number> {
    const metric = register.getSingleMetric('openq_consumer_batch_messages');
    const values = (metric ? (await metric.get()).values : []) as {
      metricName?: string;
      labels: { le?: number };
      value: number;
    }[];
    const total = (suffix: string, le?: number) =>
      values
        .filter((v) => v.metricName?.endsWith(suffix) && (le === undefined || v.labels.le === le))
        .reduce((n, v) => n + v.value, 0);
    return total('_count') - total('_bucket', 1);
  }

  it.each([
    ['published while the replicas run', false],
    ['published before the replicas start (large batches)', true],
  ])(
    `applies each project's messages in publish order while projects interleave, %s (seed ${seed})`,
    async (_, publishFirst) => {
      const random = prng(seed);
      const batchedBefore = await batchesOfSeveral();
      const replicas = publishFirst ? [] : [await replica(), await replica()];
      const projects = ['p1', 'p2', 'p3', 'p4'];
      const perProject = 40;
      const publisher = await connect({ servers: nats.url });
      connections.push(publisher);
      if (publishFirst) await ensureStreams(await publisher.jetstreamManager());
      const js = publisher.jetstream();
      // Bursts interleaved across projects; handlers take 0–15 ms, and some messages meet a
      // dependency outage on their first try (redelivered after the backoff, behind later ones).
      const sent: Promise<unknown>[] = [];
      for (let n = 0; n < perProject; n++) {
        for (const projectId of projects) {
          const note = random() < 0.08 ? 'outage-once' : `sleep:${Math.floor(random() * 16)}`;
          const envelope = makeEnvelope(PING, projectId, { n, note });
          sent.push(
            js.publish(eventSubject(PING, projectId), encodeJson(envelope), { msgID: envelope.eventId }),
          );
        }
      }
      await Promise.all(sent);
      // A backlog: the replicas share at most 32 unacked messages, so neither holds it all.
      if (publishFirst) replicas.push(...(await Promise.all([replica(32), replica(32)])));

      const ds = await openPingDatabase(db.url);
      const total = projects.length * perProject;
      await waitFor(
        async () => Number((await ds.query(`SELECT count(*) AS n FROM effects`))[0].n) === total,
        {
          what: `${total} effects`,
          timeoutMs: 60_000,
        },
      );
      const rows: { project: string; n: number }[] = await ds.query(
        `SELECT n, project_id AS project FROM effects ORDER BY applied_order`,
      );
      for (const projectId of projects) {
        const applied = rows.filter((r) => r.project === projectId).map((r) => r.n);
        expect(applied).toEqual([...Array(perProject).keys()]);
      }
      // Both replicas took part (with a backlog, the first one started may drain it alone).
      if (!publishFirst)
        for (const r of replicas)
          expect(r.server.consumerRunners.reduce((sum, runner) => sum + runner.handled, 0)).toBeGreaterThan(
            0,
          );
      // Messages went together: some transactions applied more than one.
      expect(await batchesOfSeveral()).toBeGreaterThan(batchedBefore);
      await ds.destroy();
      for (const r of replicas) await r.close();
    },
  );
});
