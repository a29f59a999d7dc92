import { Logger } from '@nestjs/common';
import type { JsMsg, NatsConnection } from 'nats';
import type { DataSource } from 'typeorm';
import { eventSubject, makeEnvelope, type EventEnvelope } from '@openq/contracts';
import { encodeJson } from '../codec';
import { RetryLaterError } from '../retry-later';
import { SubjectOrder } from '../subject-order';
import { PING, PONGED } from '../__fixtures__/ping-service.fixture';
import { openInboundWorld, type InboundWorld } from '../__fixtures__/inbound-world.fixture';
import { DeadLetters } from './dead-letter';
import type { InboundOptions } from './options';
import { PredecessorPending } from './order';

/* Parking a message in the dead letters, against the real PostgreSQL and stream. */

let world: InboundWorld;
let ds: DataSource;
let nc: NatsConnection;
let order: SubjectOrder;

beforeEach(async () => {
  ({ ds, nc, order } = world = await openInboundWorld());
});

afterEach(() => world.close());

const SUBJECT = eventSubject(PING, 'p1');

/** Publishes `count` messages on the subject; each comes back as the JsMsg a consumer would get. */
async function publish(count: number): Promise<{ msg: JsMsg; envelope: EventEnvelope }[]> {
  const out: { msg: JsMsg; envelope: EventEnvelope }[] = [];
  for (let n = 1; n <= count; n++) {
    const envelope = makeEnvelope(PING, 'p1', { n: 'not a number', note: 'x' });
    const data = encodeJson(envelope);
    const ack = await nc.jetstream().publish(SUBJECT, data, { msgID: envelope.eventId });
    const msg = { subject: SUBJECT, seq: ack.seq, data, headers: undefined, info: { deliveryCount: 2 } };
    out.push({ msg: msg as unknown as JsMsg, envelope });
  }
  return out;
}

const deadLetters = (onInvalid?: InboundOptions['onInvalid']) =>
  new DeadLetters(ds, { consumer: 'svc__a', order, onInvalid }, new Logger('dead-letter.int'));

async function rows(sql: string): Promise<unknown[]> {
  return ds.query(sql);
}

describe('DeadLetters.park', () => {
  it('writes the dead letter, the notice and the position past the message in one transaction, and terms it', async () => {
    const { msg, envelope } = (await publish(1))[0]!;
    const outcome = await deadLetters(async ({ outbox, envelope: of, reason }) => {
      outbox.event(PONGED, 'p1', { n: 0, reason, about: of?.eventId });
    }).park(msg, 'payload_invalido', 'n must be an integer', envelope);
    expect(outcome).toBe('term');
    expect(
      await rows(
        `SELECT consumer, subject, stream_seq::int AS seq, message_id, reason, deliveries FROM dead_letter`,
      ),
    ).toEqual([
      {
        consumer: 'svc__a',
        subject: SUBJECT,
        seq: 1,
        message_id: envelope.eventId,
        reason: 'payload_invalido',
        deliveries: 2,
      },
    ]);
    // the notice follows on from the refused message
    expect(
      await rows(`SELECT envelope->>'correlationId' AS c, envelope->'data'->>'about' AS about FROM outbox`),
    ).toEqual([{ c: envelope.correlationId, about: envelope.eventId }]);
    expect(await rows(`SELECT last_seq::int AS seq FROM consumer_position`)).toEqual([{ seq: 1 }]);
  });

  it('dead-letters without the notice when the notice itself cannot be written', async () => {
    const { msg, envelope } = (await publish(1))[0]!;
    const outcome = await deadLetters(async ({ manager }) => {
      await manager.query(`SELECT 1/0`); // fails the same way every time
    }).park(msg, 'payload_invalido', 'bad', envelope);
    expect(outcome).toBe('term');
    expect(await rows(`SELECT reason FROM dead_letter`)).toEqual([{ reason: 'payload_invalido' }]);
    expect(await rows(`SELECT 1 FROM outbox`)).toEqual([]);
    expect(await rows(`SELECT last_seq::int AS seq FROM consumer_position`)).toEqual([{ seq: 1 }]);
  });

  it('retries later, keeping nothing, when the notice fails for a while', async () => {
    const { msg, envelope } = (await publish(1))[0]!;
    const outcome = await deadLetters(async () => {
      throw new RetryLaterError('questions: 503');
    }).park(msg, 'payload_invalido', 'bad', envelope);
    expect(outcome).toBe('nak');
    expect(await rows(`SELECT 1 FROM dead_letter`)).toEqual([]);
    expect(await rows(`SELECT 1 FROM consumer_position`)).toEqual([]);
  });

  it('waits, keeping nothing, while an earlier message of the subject is pending', async () => {
    const [, second] = await publish(2);
    const waiting = await deadLetters()
      .park(second!.msg, 'json_invalido', 'not JSON', null)
      .catch((error: unknown) => error);
    expect(waiting).toBeInstanceOf(PredecessorPending);
    expect(await rows(`SELECT 1 FROM dead_letter`)).toEqual([]);
    expect(await rows(`SELECT 1 FROM consumer_position`)).toEqual([]);
  });
});
