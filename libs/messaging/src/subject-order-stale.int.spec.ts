import { connect, type JetStreamManager, type NatsConnection } from 'nats';
import type { DataSource } from 'typeorm';
import { createTestDatabase, startNatsServer, type TestDatabase, type TestNatsServer } from '@openq/testing';
import { openPingDatabase } from './__fixtures__/ping-service.fixture';
import { RetryLaterError } from './retry-later';
import { SubjectOrder } from './subject-order';

/*
 * Issue #35: under a network partition a stream's old leader, paused or cut off and not yet told
 * it was replaced, still answers the order look-up (STREAM.MSG.GET) from a store behind the real
 * one. Its "no message of this subject from seq N" let a replica apply a message ahead of an
 * earlier one of its subject (the partition test saw declarations applied out of stream order).
 * The message being applied is itself in the stream, so a true answer is at or before it: any
 * other answer is stale and the message is retried later. Here the stale store is a real stream
 * that has none of the subject's messages.
 */

let nats: TestNatsServer;
let db: TestDatabase;
let nc: NatsConnection;
let jsm: JetStreamManager;
let ds: DataSource;

beforeAll(async () => {
  nats = await startNatsServer();
  db = await createTestDatabase();
  nc = await connect({ servers: nats.url });
  jsm = await nc.jetstreamManager();
  ds = await openPingDatabase(db.url);
  await jsm.streams.add({ name: 'ORDER_LIVE', subjects: ['ord.>'] });
  await jsm.streams.add({ name: 'ORDER_BEHIND', subjects: ['behind.>'] });
  const js = nc.jetstream();
  await js.publish('ord.p1', new TextEncoder().encode('{"eventId":"a"}'), { msgID: 'a' }); // seq 1
  await js.publish('ord.p1', new TextEncoder().encode('{"eventId":"b"}'), { msgID: 'b' }); // seq 2
});

afterAll(async () => {
  await ds?.destroy();
  await nc?.close();
  await nats?.stop();
  await db?.drop();
});

const position = async (consumer: string) => {
  const rows: { last_seq: string }[] = await ds.query(
    `SELECT last_seq FROM consumer_position WHERE consumer = $1 AND subject = 'ord.p1'`,
    [consumer],
  );
  return rows[0] ? Number(rows[0].last_seq) : null;
};

describe('the order look-up answered by a stale leader', () => {
  it('holds the second message of a subject back while the real leader has the first unsettled', async () => {
    const order = new SubjectOrder('live', { jsm, stream: 'ORDER_LIVE', ackFloor: 0 });
    const predecessor = await ds.transaction((m) => order.enter(m, 'ord.p1', 2));
    expect(predecessor).toEqual({ subject: 'ord.p1', seq: 1 });
    // And the first one may go.
    expect(await ds.transaction((m) => order.enter(m, 'ord.p1', 1))).toBeNull();
  });

  it('retries later, instead of applying it, when the answer says the subject has nothing up to the message', async () => {
    const stale = new SubjectOrder('stale', { jsm, stream: 'ORDER_BEHIND', ackFloor: 0 });
    const one = ds.transaction((m) => stale.enter(m, 'ord.p1', 2));
    await expect(one).rejects.toBeInstanceOf(RetryLaterError);
    await expect(one).rejects.toThrow(/stale leader/);
    await expect(
      ds.transaction((m) => stale.enterBatch(m, [{ subject: 'ord.p1', seqs: [2] }])),
    ).rejects.toBeInstanceOf(RetryLaterError);
    // Nothing moved: the position stays where it was, for the next delivery to check again.
    expect(await position('stale')).toBeNull();
  });
});
