import type { JsMsg, NatsConnection } from 'nats';
import type { DataSource } from 'typeorm';
import { eventSubject, makeEnvelope } from '@openq/contracts';
import { encodeJson } from '../codec';
import { SubjectOrder } from '../subject-order';
import { PING } from '../__fixtures__/ping-service.fixture';
import { openInboundWorld, type InboundWorld } from '../__fixtures__/inbound-world.fixture';
import type { BatchItem } from './batch';
import type { Outcome } from './options';
import { enterBatchTurn, enterTurn, PredecessorPending } from './order';

/* A message's and a batch's turn on their subjects, against the real PostgreSQL and stream. */

let world: InboundWorld;
let ds: DataSource;
let nc: NatsConnection;
let order: SubjectOrder;

beforeEach(async () => {
  ({ ds, nc, order } = world = await openInboundWorld());
});

afterEach(() => world.close());

const P1 = eventSubject(PING, 'p1');
const P2 = eventSubject(PING, 'p2');

/** Publishes one message per project given, in that order (stream sequences 1, 2, …). */
async function publish(...projects: string[]): Promise<void> {
  for (const [n, projectId] of projects.entries()) {
    const envelope = makeEnvelope(PING, projectId, { n, note: 'x' });
    await nc
      .jetstream()
      .publish(eventSubject(PING, projectId), encodeJson(envelope), { msgID: envelope.eventId });
  }
}

async function positions(): Promise<{ subject: string; seq: number }[]> {
  return ds.query(`SELECT subject, last_seq::int AS seq FROM consumer_position ORDER BY subject`);
}

const item = (subject: string, seq: number): BatchItem => ({
  msg: { subject, seq } as unknown as JsMsg,
  envelope: makeEnvelope(PING, 'p1', {}),
});

describe('enterTurn', () => {
  it('rolls back while an earlier message of the subject is pending, and lets it pass once that one is settled', async () => {
    await publish('p1', 'p1');
    const turn = (seq: number) => ds.transaction((m) => enterTurn(order, m, { subject: P1, seq }));
    const pending = await turn(2).catch((error: unknown) => error);
    expect(pending).toBeInstanceOf(PredecessorPending);
    expect((pending as PredecessorPending).predecessor).toEqual({ subject: P1, seq: 1 });
    expect(await positions()).toEqual([]);
    await turn(1);
    expect(await positions()).toEqual([{ subject: P1, seq: 1 }]);
    await turn(2);
    expect(await positions()).toEqual([{ subject: P1, seq: 2 }]);
  });

  it('without an order sends nothing', async () => {
    await ds.transaction(async (m) => {
      const query = jest.spyOn(m, 'query');
      await enterTurn(undefined, m, { subject: P1, seq: 9 });
      expect(query).not.toHaveBeenCalled();
    });
  });
});

describe('enterBatchTurn', () => {
  it("takes each subject's messages up to one whose predecessor is outside the batch, deferring the rest", async () => {
    await publish('p1', 'p1', 'p1', 'p2'); // p1: 1, 2, 3; p2: 4
    const one = item(P1, 1);
    const three = item(P1, 3);
    const four = item(P2, 4);
    const subjects = new Map([
      [P1, [one, three]],
      [P2, [four]],
    ]);
    const outcomes = new Map<JsMsg, Outcome>();
    const admitted = await ds.transaction(async (m) => {
      const taken = await enterBatchTurn(order, m, subjects, outcomes);
      // the positions are locked, not moved: the batch moves them once applied (advanceBatch)
      expect(
        await m.query(`SELECT subject, last_seq::int AS seq FROM consumer_position ORDER BY subject`),
      ).toEqual([
        { subject: P1, seq: 0 },
        { subject: P2, seq: 0 },
      ]);
      return taken;
    });
    expect(admitted.taken).toEqual([one, four]);
    expect(admitted.moved).toEqual([
      { subject: P1, seq: 1 },
      { subject: P2, seq: 4 },
    ]);
    expect([...outcomes]).toEqual([[three.msg, 'defer']]);
  });

  it('takes every message, with no statement, without an order', async () => {
    const subjects = new Map([[P1, [item(P1, 5), item(P1, 9)]]]);
    await ds.transaction(async (m) => {
      const query = jest.spyOn(m, 'query');
      const { taken, moved } = await enterBatchTurn(undefined, m, subjects, new Map());
      expect(taken.map((i) => i.msg.seq)).toEqual([5, 9]);
      expect(moved).toEqual([{ subject: P1, seq: 9 }]);
      expect(query).not.toHaveBeenCalled();
    });
  });
});

describe('the delivery window: no look-up in the stream for what this process received', () => {
  /** The stream look-ups the order makes (the real JetStream manager, counted). */
  function countLookups(): { count: () => number } {
    const jsm = (order as unknown as { options: { jsm: { streams: { getMessage: unknown } } } }).options.jsm;
    const spy = jest.spyOn(jsm.streams as { getMessage: (...a: unknown[]) => unknown }, 'getMessage');
    return { count: () => spy.mock.calls.length };
  }
  const turn = (seq: number, subject = P1) => ds.transaction((m) => enterTurn(order, m, { subject, seq }));

  it('interleaved subjects, every delivery received here: order kept with no look-up', async () => {
    await publish('p1', 'p2', 'p1', 'p2', 'p1');
    const lookups = countLookups();
    [P1, P2, P1, P2, P1].forEach((subject, i) => order.received(subject, i + 1, i + 1, true));
    const pending = await turn(3).catch((error: unknown) => error); // 1 received, not settled
    expect((pending as PredecessorPending).predecessor).toEqual({ subject: P1, seq: 1 });
    await turn(1);
    order.settled(P1, 1);
    await turn(3);
    order.settled(P1, 3);
    await turn(2, P2);
    order.settled(P2, 2);
    await turn(5);
    expect(await positions()).toEqual([
      { subject: P1, seq: 5 },
      { subject: P2, seq: 2 },
    ]);
    expect(lookups.count()).toBe(0);
  });

  it('a delivery that went to another process (a gap in the numbering): the stream is asked', async () => {
    await publish('p1', 'p2', 'p1');
    await turn(1);
    const lookups = countLookups();
    order.received(P1, 3, 3, true);
    order.received(P1, 1, 5, false); // delivery 4 went to another process: what it holds is unknown
    await turn(3);
    expect(lookups.count()).toBeGreaterThan(0);
    expect(await positions()).toEqual([{ subject: P1, seq: 3 }]);
  });
});
