import { connect } from 'nats';
import { Client } from 'pg';
import { eventSubject, makeEnvelope } from '@openq/contracts';
import { createTestDatabase, eachTestNatsAndDatabase, startNatsServer, waitFor } from '@openq/testing';
import { encodeJson } from './codec';
import { ensureStreams } from './provisioning';
import { SubjectOrder } from './subject-order';
import { openPingDatabase, PING, startPingService } from './__fixtures__/ping-service.fixture';

/*
 * What one message costs a durable consumer, in round trips: SQL statements and transactions
 * (every pg client of this process) and stream look-ups of the order check, for 1,000 messages of
 * one type drained by one service — one message per transaction (batchSize 1, the old path)
 * against batches. Counts, not times: they do not depend on the machine's load.
 */

const t = eachTestNatsAndDatabase();

/** Counts the statements every pg client of the process sends while `work` runs. */
async function countStatements(
  work: () => Promise<void>,
): Promise<{ statements: number; transactions: number }> {
  const original = Client.prototype.query;
  let statements = 0;
  let transactions = 0;
  Client.prototype.query = function (this: Client, ...args: unknown[]) {
    const first = args[0];
    const text = typeof first === 'string' ? first : (first as { text?: string } | null)?.text;
    if (typeof text === 'string') {
      statements++;
      if (/^\s*(START TRANSACTION|BEGIN)/i.test(text)) transactions++;
    }
    return (original as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof Client.prototype.query;
  try {
    await work();
  } finally {
    Client.prototype.query = original;
  }
  return { statements, transactions };
}

async function drain(total: number, projects: number, batchSize: number) {
  await ensureStreams(await t.nc.jetstreamManager());
  const js = t.nc.jetstream();
  // Published before the service starts: a backlog, as after a deploy or an outage.
  await Promise.all(
    Array.from({ length: total }, (_, i) => {
      const envelope = makeEnvelope(PING, `p${i % projects}`, { n: i, note: 'x' });
      return js.publish(eventSubject(PING, envelope.projectId), encodeJson(envelope), {
        msgID: envelope.eventId,
      });
    }),
  );
  const ds = await openPingDatabase(t.db.url);
  const lookups = jest.spyOn(
    SubjectOrder.prototype as unknown as { firstOfSubjectFrom(): unknown },
    'firstOfSubjectFrom',
  );
  let service: Awaited<ReturnType<typeof startPingService>> | undefined;
  const counted = await countStatements(async () => {
    service = await startPingService(t.nc, t.db.url, { relay: false, sampleIntervalMs: 0, batchSize });
    await waitFor(() => service!.server.consumerRunners[0]!.handled === total, {
      what: `${total} handled`,
      timeoutMs: 90_000,
    });
  });
  const figures = {
    batchSize,
    projects,
    statementsPerMessage: counted.statements / total,
    transactionsPerMessage: counted.transactions / total,
    lookupsPerMessage: lookups.mock.calls.length / total,
  };
  lookups.mockRestore();
  expect(Number((await ds.query(`SELECT count(*) AS n FROM effects`))[0].n)).toBe(total);
  await service!.close();
  await ds.destroy();
  return figures;
}

describe('what a message costs a durable consumer', () => {
  const total = 1000;

  it.each([1, 7])(
    'with batches: fewer transactions and statements per message than one by one (%i project(s))',
    async (projects) => {
      const single = await drain(total, projects, 1);
      // A fresh stream and database for the second run.
      await t.nc.close();
      await t.nats.stop();
      await t.db.drop();
      t.nats = await startNatsServer();
      t.db = await createTestDatabase();
      t.nc = await connect({ servers: t.nats.url });
      const batched = await drain(total, projects, 256);
      console.log(JSON.stringify({ single, batched }));
      expect(single.transactionsPerMessage).toBeGreaterThanOrEqual(1);
      expect(batched.transactionsPerMessage).toBeLessThan(single.transactionsPerMessage / 4);
      expect(batched.statementsPerMessage).toBeLessThan(single.statementsPerMessage / 2);
    },
  );
});
