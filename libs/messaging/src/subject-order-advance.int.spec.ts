import { deferWrite, StatementRecorder } from '@openq/persistence';
import { createTestDatabase, type TestDatabase } from '@openq/testing';
import { SubjectOrder } from './subject-order';
import { openPingDatabase } from './__fixtures__/ping-service.fixture';

/*
 * Issue #29: a batch whose handlers only write (deferWrite) and publish nothing — the notifier's
 * plan of engine deliveries — sends its writes with the consumer's position, in one statement.
 */

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db.drop();
});

it("advanceBatch takes the handlers' deferred writes along: one statement for writes and positions", async () => {
  const ds = await openPingDatabase(db.url);
  const statements = new StatementRecorder();
  ds.subscribers.push(statements);
  // advanceBatch reads nothing of the stream: no JetStream needed here.
  const order = new SubjectOrder('testsvc__agent_test_ping', {
    jsm: null as never,
    stream: 'X',
    ackFloor: 0,
  });
  try {
    await ds.transaction(async (m) => {
      for (const n of [1, 2, 3])
        await deferWrite(
          m,
          `INSERT INTO effects (event_id, n, applied_by) VALUES (gen_random_uuid(), $1, $2)`,
          [n, 'a'],
        );
      await order.advanceBatch(m, [
        { subject: 'agent.test.ping.p1', seq: 7 },
        { subject: 'agent.test.ping.p2', seq: 9 },
      ]);
    });
    const writes = statements.sent.filter((s) => /INSERT/.test(s));
    expect(writes).toHaveLength(1);
    expect(writes[0]).toMatch(
      /^WITH openq_w2 AS \(INSERT INTO effects.*openq_w0 AS .*INSERT INTO consumer_position/s,
    );
    expect((await ds.query(`SELECT n FROM effects ORDER BY n`)).map((r: { n: number }) => r.n)).toEqual([
      1, 2, 3,
    ]);
    expect(
      await ds.query(`SELECT subject, last_seq::int AS seq FROM consumer_position ORDER BY subject`),
    ).toEqual([
      { subject: 'agent.test.ping.p1', seq: 7 },
      { subject: 'agent.test.ping.p2', seq: 9 },
    ]);
  } finally {
    await ds.destroy();
  }
});
