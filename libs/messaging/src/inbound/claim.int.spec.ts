import type { JsMsg, NatsConnection } from 'nats';
import type { DataSource } from 'typeorm';
import { eventSubject, makeEnvelope } from '@openq/contracts';
import { encodeJson } from '../codec';
import { PING } from '../__fixtures__/ping-service.fixture';
import { openInboundWorld, type InboundWorld } from '../__fixtures__/inbound-world.fixture';
import type { BatchItem } from './batch';
import { Inbox } from './claim';
import { PredecessorPending } from './order';

/* The inbox claim against the real PostgreSQL (and, for its turn, the real stream). */

let world: InboundWorld;
let ds: DataSource;
let nc: NatsConnection;

beforeEach(async () => {
  ({ ds, nc } = world = await openInboundWorld());
});

afterEach(() => world.close());

const SUBJECT = eventSubject(PING, 'p1');
const msg = (seq: number) => ({ subject: SUBJECT, seq });
const item = (eventId: string, seq: number): BatchItem => ({
  msg: { subject: SUBJECT, seq } as unknown as JsMsg,
  envelope: { ...makeEnvelope(PING, 'p1', {}), eventId },
});
const rolledBack = new Error('rolled back');

async function inboxOf(consumer: string): Promise<string[]> {
  const rows: { message_id: string }[] = await ds.query(
    `SELECT message_id FROM inbox WHERE consumer = $1 ORDER BY message_id`,
    [consumer],
  );
  return rows.map((r) => r.message_id);
}

describe('Inbox.claimInTurn without an order', () => {
  it('claims a message once: a redelivery finds it, another consumer does not', async () => {
    const inbox = new Inbox(ds, 'svc__a');
    expect(await inbox.has('m1')).toBe(false);
    expect(await ds.transaction((m) => inbox.claimInTurn(m, undefined, msg(1), 'm1'))).toBe(true);
    expect(await ds.transaction((m) => inbox.claimInTurn(m, undefined, msg(1), 'm1'))).toBe(false);
    expect(await inbox.has('m1')).toBe(true);
    const other = new Inbox(ds, 'svc__b');
    expect(await other.has('m1')).toBe(false);
    expect(await ds.transaction((m) => other.claimInTurn(m, undefined, msg(1), 'm1'))).toBe(true);
    expect(await inboxOf('svc__a')).toEqual(['m1']);
  });

  it('keeps no claim of a transaction rolled back: the message is new again', async () => {
    const inbox = new Inbox(ds, 'svc__a');
    await expect(
      ds.transaction(async (m) => {
        expect(await inbox.claimInTurn(m, undefined, msg(1), 'm1')).toBe(true);
        throw rolledBack;
      }),
    ).rejects.toBe(rolledBack);
    expect(await inbox.has('m1')).toBe(false);
    expect(await ds.transaction((m) => inbox.claimInTurn(m, undefined, msg(1), 'm1'))).toBe(true);
  });
});

describe('Inbox.claimInTurn with an order', () => {
  it('claims in the statement that takes the turn; waits, claiming nothing, while an earlier message is pending', async () => {
    const ids: string[] = [];
    for (let n = 1; n <= 2; n++) {
      const envelope = makeEnvelope(PING, 'p1', { n, note: 'x' });
      await nc.jetstream().publish(SUBJECT, encodeJson(envelope), { msgID: envelope.eventId });
      ids.push(envelope.eventId);
    }
    const { order } = world; // svc__a on AGENT_EVENTS, from an ack floor of 0
    const inbox = new Inbox(ds, 'svc__a');
    const claim = (seq: number) =>
      ds.transaction((m) => inbox.claimInTurn(m, order, msg(seq), ids[seq - 1]!));
    const pending = await claim(2).catch((error: unknown) => error);
    expect(pending).toBeInstanceOf(PredecessorPending);
    expect((pending as PredecessorPending).predecessor).toEqual({ subject: SUBJECT, seq: 1 });
    expect(await inbox.has(ids[1]!)).toBe(false);
    expect(await ds.query(`SELECT * FROM consumer_position`)).toEqual([]);
    const statements = jest.spyOn(ds.manager.constructor.prototype, 'query');
    expect(await claim(1)).toBe(true);
    // the turn and the claim in one statement
    const sent = statements.mock.calls.map(([sql]) => String(sql));
    statements.mockRestore();
    expect(sent.filter((sql) => /inbox|consumer_position/.test(sql))).toEqual([
      expect.stringMatching(/consumer_position[\s\S]*INSERT INTO inbox/),
    ]);
    expect(await claim(1)).toBe(false); // a redelivery
    expect(await claim(2)).toBe(true);
    expect(await inboxOf('svc__a')).toEqual([...ids].sort());
    expect(await ds.query(`SELECT subject, last_seq::int AS seq FROM consumer_position`)).toEqual([
      { subject: SUBJECT, seq: 2 },
    ]);
  });
});

describe('Inbox.claimBatch', () => {
  it('claims all the ids of a batch in one statement and returns those new to the inbox, once each', async () => {
    const inbox = new Inbox(ds, 'svc__a');
    await ds.transaction((m) => inbox.claimInTurn(m, undefined, msg(1), 'x1'));
    const statements = jest.spyOn(ds.manager.constructor.prototype, 'query');
    const claimed = await ds.transaction((m) =>
      inbox.claimBatch(m, [item('x1', 1), item('x2', 2), item('x2', 3), item('x3', 4)]),
    );
    expect([...claimed].sort()).toEqual(['x2', 'x3']);
    expect(statements.mock.calls.filter(([sql]) => /INSERT INTO inbox/.test(String(sql)))).toHaveLength(1);
    statements.mockRestore();
    expect(await inboxOf('svc__a')).toEqual(['x1', 'x2', 'x3']);
  });

  it('sends nothing when the batch takes no message', async () => {
    const inbox = new Inbox(ds, 'svc__a');
    await ds.transaction(async (m) => {
      const query = jest.spyOn(m, 'query');
      expect((await inbox.claimBatch(m, [])).size).toBe(0);
      expect(query).not.toHaveBeenCalled();
    });
  });
});
