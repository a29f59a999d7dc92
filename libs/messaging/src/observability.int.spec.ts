import { connect, headers as natsHeaders, type NatsConnection } from 'nats';
import { register } from 'prom-client';
import { eventSubject, makeEnvelope, STREAMS, type EventEnvelope } from '@openq/contracts';
import {
  createTestDatabase,
  EventCollector,
  startNatsServer,
  waitFor,
  type TestDatabase,
  type TestNatsServer,
} from '@openq/testing';
import { encodeJson } from './codec';
import { RpcClient } from './rpc-client';
import { CORRELATION_HEADER } from './trace-context';
import { PING, PONGED, startPingService } from './__fixtures__/ping-service.fixture';

const TRACEPARENT = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
const CONSUMER = 'testsvc__agent_test_ping';

let nats: TestNatsServer;
let db: TestDatabase;
let nc: NatsConnection;

beforeAll(async () => {
  nats = await startNatsServer();
  db = await createTestDatabase();
  nc = await connect({ servers: nats.url });
});

afterAll(async () => {
  await nc.close();
  await nats.stop();
  await db.drop();
});

/** One series of a metric, by its labels (0 when absent); `suffix` picks a histogram's `_count`, `_sum`. */
async function value(name: string, labels: Record<string, string>, suffix = ''): Promise<number> {
  const metric = register.getSingleMetric(name);
  if (!metric) return 0;
  const { values } = await metric.get();
  const found = values.find(
    (v) =>
      ((v as { metricName?: string }).metricName ?? name) === `${name}${suffix}` &&
      Object.entries(labels).every(([k, l]) => v.labels[k] === l),
  );
  return found?.value ?? 0;
}

async function publish(envelope: EventEnvelope, msgID: string, traceparent?: string): Promise<void> {
  const h = natsHeaders();
  if (traceparent) h.set('traceparent', traceparent);
  await nc
    .jetstream()
    .publish(eventSubject(envelope.type, envelope.projectId), encodeJson(envelope), { msgID, headers: h });
}

describe('observability of the transport', () => {
  it('measures handling by outcome, counts duplicates and dead letters, samples lag and backlog, and carries the trace into the outbox', async () => {
    const service = await startPingService(nc, db.url, { sampleIntervalMs: 50 });
    const collector = await EventCollector.start(nc, STREAMS.openqEvents.name);
    try {
      const first = makeEnvelope(PING, 'p1', { n: 1, note: 'a' });
      await publish(first, first.eventId);
      await publish(first, 'redelivered-past-the-window'); // the same event again: the inbox absorbs it
      const traced = makeEnvelope(PING, 'p2', { n: 2, note: 'traced' }, { correlationId: 'corr-traced' });
      await publish(traced, traced.eventId, TRACEPARENT);
      const poison = makeEnvelope(PING, 'p1', { n: 'one', note: 'x' });
      await publish(poison, poison.eventId);

      const [pong] = await collector
        .waitForType(PONGED, 2)
        .then((pongs) => pongs.filter((p) => p.causationId === traced.eventId));
      await waitFor(
        async () =>
          (await value('openq_dead_letters_total', { consumer: CONSUMER, reason: 'payload_invalido' })) === 1,
        { what: 'dead letter counted' },
      );
      expect(
        await value(
          'openq_event_handling_duration_seconds',
          { consumer: CONSUMER, type: PING, outcome: 'ack' },
          '_count',
        ),
      ).toBe(3);
      expect(
        await value(
          'openq_event_handling_duration_seconds',
          { consumer: CONSUMER, type: PING, outcome: 'term' },
          '_count',
        ),
      ).toBe(1);
      expect(await value('openq_inbox_duplicates_total', { consumer: CONSUMER })).toBe(1);
      // Counted once the relay has marked its batch (just after the PubAck).
      await waitFor(async () => (await value('openq_outbox_published_total', { service: 'testsvc' })) === 2, {
        what: 'two rows published',
      });

      // The follow-on event keeps the cause's correlation id; its message carries the cause's trace context.
      expect(pong!.correlationId).toBe('corr-traced');
      const jsm = await nc.jetstreamManager();
      const stored = await jsm.streams.getMessage(STREAMS.openqEvents.name, {
        last_by_subj: eventSubject(PONGED, 'p2'),
      });
      expect(stored.header.get('traceparent')).toBe(TRACEPARENT);

      // Sampled: nothing left pending on the consumer, nothing left in the outbox.
      await waitFor(
        async () =>
          (await value('openq_consumer_ack_pending_messages', { consumer: CONSUMER })) === 0 &&
          (await value('openq_outbox_backlog_rows', { service: 'testsvc' })) === 0,
        {
          what: 'lag sampled',
        },
      );
      expect(register.getSingleMetric('openq_consumer_pending_messages')).toBeDefined();
    } finally {
      collector.stop();
      await service.close();
    }
  });

  it('samples the real outbox backlog when nothing relays it', async () => {
    const service = await startPingService(nc, db.url, { relay: false, sampleIntervalMs: 50 });
    try {
      for (const n of [10, 11, 12]) {
        const e = makeEnvelope(PING, 'p9', { n, note: 'backlog' });
        await publish(e, e.eventId);
      }
      await waitFor(async () => (await value('openq_outbox_backlog_rows', { service: 'testsvc' })) === 3, {
        what: 'backlog of 3 sampled',
      });
    } finally {
      await service.close();
    }
  });

  it('measures request/reply latency by verb and reply status, under the caller’s correlation id', async () => {
    const service = await startPingService(nc, db.url);
    try {
      const rpc = new RpcClient(nc, 2000);
      await rpc.request(
        'testsvc',
        'echo',
        { text: 'a' },
        { headers: { [CORRELATION_HEADER]: 'corr-rpc', traceparent: TRACEPARENT } },
      );
      await rpc.request('testsvc', 'echo', { text: 'b' });
      await rpc.request('testsvc', 'echo', { text: 'refuse' });
      await rpc.request('testsvc', 'echo', { text: 5 });
      expect(
        await value(
          'openq_request_duration_seconds',
          { service: 'testsvc', verb: 'echo', status: 'ok' },
          '_count',
        ),
      ).toBe(2);
      expect(
        await value(
          'openq_request_duration_seconds',
          { service: 'testsvc', verb: 'echo', status: '409' },
          '_count',
        ),
      ).toBe(1);
      expect(
        await value(
          'openq_request_duration_seconds',
          { service: 'testsvc', verb: 'echo', status: '400' },
          '_count',
        ),
      ).toBe(1);
    } finally {
      await service.close();
    }
  });
});
