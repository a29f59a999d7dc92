import {
  AckPolicy,
  DeliverPolicy,
  headers as natsHeaders,
  nanos,
  RetentionPolicy,
  StorageType,
  type ConsumerMessages,
  type JsMsg,
  type NatsConnection,
} from 'nats';
import { DataSource } from 'typeorm';
import { makeEnvelope } from '@openq/contracts';
import { encodeJson } from '@openq/messaging';
import { declareData } from '../support/payloads';
import { closedLoop, openLoop, until } from '../support/load';
import { Latency, now } from '../support/stats';

const STREAM = 'BENCH_FLOOR';
const SUBJECT = 'bench.floor';
const SCHEMA = 'bench_floor';

export interface FloorThroughput {
  eventsPerSecond: number;
  events: number;
}

export interface FloorLatency {
  commitP50: number;
  commitP99: number;
  consumeP50: number;
  consumeP99: number;
  samples: number;
}

/**
 * The floor: what the same infrastructure and client libraries give with no openq code in the
 * way. A JetStream stream like openq's (file storage, 10 min duplicate window), one durable pull
 * consumer with explicit ack (max_ack_pending 256, 16 in flight, like openq's ConsumerRunner),
 * and per message ONE PostgreSQL transaction through TypeORM (pool 10, like openq) that inserts
 * the envelope as jsonb, then the ack. Payloads are openq's own envelopes.
 */
export class Floor {
  private messages: ConsumerMessages | null = null;
  private readonly inFlight = new Set<Promise<void>>();
  private sentAt = new Map<string, number>();
  private committed = 0;
  private commitLatency: Latency | null = null;
  private consumeLatency: Latency | null = null;

  private constructor(
    private readonly nc: NatsConnection,
    private readonly ds: DataSource,
  ) {}

  static async start(nc: NatsConnection, databaseUrl: string, concurrency = 16): Promise<Floor> {
    const jsm = await nc.jetstreamManager();
    await jsm.streams.add({
      name: STREAM,
      subjects: [`${SUBJECT}.>`],
      retention: RetentionPolicy.Limits,
      storage: StorageType.File,
      num_replicas: 1,
      duplicate_window: nanos(10 * 60_000),
    });
    await jsm.consumers.add(STREAM, {
      durable_name: 'floor',
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.All,
      filter_subject: `${SUBJECT}.>`,
      ack_wait: nanos(30_000),
      max_deliver: -1,
      max_ack_pending: 256,
    });
    const ds = new DataSource({
      type: 'postgres',
      url: databaseUrl,
      logging: false,
      extra: { max: 10, options: `-c search_path=${SCHEMA}` },
    });
    await ds.initialize();
    await ds.query(`CREATE SCHEMA IF NOT EXISTS ${SCHEMA}`);
    await ds.query(
      `CREATE TABLE IF NOT EXISTS ${SCHEMA}.floor_event (event_id uuid PRIMARY KEY, subject text NOT NULL, envelope jsonb NOT NULL, recorded_at timestamptz NOT NULL DEFAULT now())`,
    );
    const floor = new Floor(nc, ds);
    const consumer = await nc.jetstream().consumers.get(STREAM, 'floor');
    floor.messages = await consumer.consume({ max_messages: concurrency * 2 });
    void floor.run(floor.messages, concurrency);
    return floor;
  }

  private async run(messages: ConsumerMessages, concurrency: number): Promise<void> {
    for await (const msg of messages) {
      while (this.inFlight.size >= concurrency) await Promise.race(this.inFlight);
      const task = this.handle(msg).finally(() => this.inFlight.delete(task));
      this.inFlight.add(task);
    }
  }

  private async handle(msg: JsMsg): Promise<void> {
    const id = msg.headers?.get('Nats-Msg-Id') ?? '';
    const sent = this.sentAt.get(id);
    if (sent !== undefined) this.consumeLatency?.record(now() - sent);
    await this.ds.transaction((m) =>
      m.query(`INSERT INTO floor_event (event_id, subject, envelope) VALUES ($1, $2, $3::jsonb)`, [
        id,
        msg.subject,
        msg.string(),
      ]),
    );
    msg.ack();
    this.committed++;
    if (sent !== undefined) {
      this.commitLatency?.record(now() - sent);
      this.sentAt.delete(id);
    }
  }

  private publish(i: number, tag: string, at = now()): Promise<unknown> {
    const envelope = makeEnvelope('agent.question.declare', `p${i % 10}`, declareData(i, tag));
    const h = natsHeaders();
    this.sentAt.set(envelope.eventId, at);
    return this.nc
      .jetstream()
      .publish(`${SUBJECT}.p${i % 10}`, encodeJson(envelope), { msgID: envelope.eventId, headers: h });
  }

  /** Sustained: publishes `events` (64 PubAcks outstanding) while the consumer commits them. */
  async throughput(events: number, tag: string, timeoutMs: number): Promise<FloorThroughput> {
    this.sentAt = new Map();
    this.commitLatency = null;
    this.consumeLatency = null;
    const target = this.committed + events;
    const started = now();
    await closedLoop(events, 64, async (i) => {
      await this.publish(i, tag);
    });
    await until(() => this.committed >= target, `${events} floor commits`, timeoutMs);
    return { eventsPerSecond: events / ((now() - started) / 1000), events };
  }

  /** At a fixed rate: publish→consume and publish→commit latencies (HDR histograms). */
  async latency(rate: number, events: number, tag: string, timeoutMs: number): Promise<FloorLatency> {
    this.sentAt = new Map();
    const commit = (this.commitLatency = new Latency());
    const consume = (this.consumeLatency = new Latency());
    const target = this.committed + events;
    await openLoop(rate, events, (i, at) => {
      void this.publish(i, tag, at);
    });
    await until(() => this.committed >= target, `${events} floor commits at ${rate}/s`, timeoutMs);
    this.commitLatency = null;
    this.consumeLatency = null;
    return {
      commitP50: commit.p(50),
      commitP99: commit.p(99),
      consumeP50: consume.p(50),
      consumeP99: consume.p(99),
      samples: commit.count,
    };
  }

  async stop(): Promise<void> {
    this.messages?.stop();
    await Promise.allSettled([...this.inFlight]);
    await this.ds.destroy();
  }
}

const BATCH_STREAM = 'BENCH_FLOOR_BATCHED';
const BATCH_SUBJECT = 'bench.floorb';

export interface BatchedFloorThroughput extends FloorThroughput {
  /** Messages per transaction, on average over the measurement. */
  meanBatch: number;
  /** Events per second until the last PubAck: close to `eventsPerSecond`, the publisher is the limit. */
  publishedPerSecond: number;
}

/**
 * The batched floor: the same stream, payloads and publisher as the floor, but the consumer
 * takes up to `batch` messages at once and applies them in ONE transaction of three set-based
 * statements — the inbox insert (`unnest` of the ids, `ON CONFLICT DO NOTHING RETURNING`, so a
 * redelivery is applied once), a trivial effect (a per-project counter, like `question_counts`)
 * and the outbox insert, both only for the rows the inbox took — then acks them all. It is what
 * an exactly-once consumer that batches could reach on this infrastructure; `inFlight`
 * transactions run at once (pool 10, like openq).
 */
export class BatchedFloor {
  private messages: ConsumerMessages | null = null;
  private readonly queue: JsMsg[] = [];
  /** Workers waiting for a message; every one is woken to look again. */
  private readonly waiting = new Set<() => void>();
  private stopped = false;
  private workers: Promise<void>[] = [];
  private committed = 0;
  private transactions = 0;

  private constructor(
    private readonly nc: NatsConnection,
    private readonly ds: DataSource,
    private readonly batch: number,
  ) {}

  static async start(
    nc: NatsConnection,
    databaseUrl: string,
    batch = 100,
    inFlight = 2,
  ): Promise<BatchedFloor> {
    const jsm = await nc.jetstreamManager();
    await jsm.streams.add({
      name: BATCH_STREAM,
      subjects: [`${BATCH_SUBJECT}.>`],
      retention: RetentionPolicy.Limits,
      storage: StorageType.File,
      num_replicas: 1,
      duplicate_window: nanos(10 * 60_000),
    });
    await jsm.consumers.add(BATCH_STREAM, {
      durable_name: 'floor_batched',
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.All,
      filter_subject: `${BATCH_SUBJECT}.>`,
      ack_wait: nanos(30_000),
      max_deliver: -1,
      max_ack_pending: batch * (inFlight + 2),
    });
    const ds = new DataSource({
      type: 'postgres',
      url: databaseUrl,
      logging: false,
      extra: { max: 10, options: `-c search_path=${SCHEMA}` },
    });
    await ds.initialize();
    await ds.query(`CREATE SCHEMA IF NOT EXISTS ${SCHEMA}`);
    await ds.query(
      `CREATE TABLE IF NOT EXISTS ${SCHEMA}.batch_inbox (event_id uuid PRIMARY KEY, subject text NOT NULL, envelope jsonb NOT NULL, recorded_at timestamptz NOT NULL DEFAULT now())`,
    );
    await ds.query(
      `CREATE TABLE IF NOT EXISTS ${SCHEMA}.batch_effect (project_id text PRIMARY KEY, events bigint NOT NULL)`,
    );
    await ds.query(
      `CREATE TABLE IF NOT EXISTS ${SCHEMA}.batch_outbox (position bigserial PRIMARY KEY, event_id uuid NOT NULL, subject text NOT NULL, payload jsonb NOT NULL, published_at timestamptz)`,
    );
    const floor = new BatchedFloor(nc, ds, batch);
    const consumer = await nc.jetstream().consumers.get(BATCH_STREAM, 'floor_batched');
    floor.messages = await consumer.consume({ max_messages: batch * (inFlight + 1) });
    void floor.pump(floor.messages);
    floor.workers = Array.from({ length: inFlight }, () => floor.work());
    return floor;
  }

  private async pump(messages: ConsumerMessages): Promise<void> {
    for await (const msg of messages) {
      this.queue.push(msg);
      this.wakeAll();
    }
  }

  private wakeAll(): void {
    for (const wake of this.waiting) wake();
    this.waiting.clear();
  }

  /** Takes whatever is queued, up to `batch` messages, waiting for the first one. */
  private async take(): Promise<JsMsg[]> {
    while (this.queue.length === 0 && !this.stopped)
      await new Promise<void>((resolve) => this.waiting.add(resolve));
    return this.queue.splice(0, this.batch);
  }

  private async work(): Promise<void> {
    for (;;) {
      const msgs = await this.take();
      if (msgs.length === 0) return;
      const ids = msgs.map((m) => m.headers?.get('Nats-Msg-Id') ?? '');
      const subjects = msgs.map((m) => m.subject);
      const bodies = msgs.map((m) => m.string());
      await this.ds.transaction(async (m) => {
        const taken = (await m.query(
          `INSERT INTO batch_inbox (event_id, subject, envelope)
           SELECT * FROM unnest($1::uuid[], $2::text[], $3::jsonb[])
           ON CONFLICT DO NOTHING RETURNING event_id, subject`,
          [ids, subjects, bodies],
        )) as { event_id: string; subject: string }[];
        if (taken.length === 0) return;
        const takenIds = taken.map((t) => t.event_id);
        await m.query(
          `INSERT INTO batch_effect (project_id, events)
           SELECT split_part(subject, '.', 3), count(*) FROM unnest($1::text[]) AS s(subject) GROUP BY 1
           ON CONFLICT (project_id) DO UPDATE SET events = batch_effect.events + EXCLUDED.events`,
          [taken.map((t) => t.subject)],
        );
        await m.query(
          `INSERT INTO batch_outbox (event_id, subject, payload)
           SELECT gen_random_uuid(), 'bench.floor.out', i.envelope
             FROM batch_inbox i WHERE i.event_id = ANY($1::uuid[])`,
          [takenIds],
        );
      });
      for (const msg of msgs) msg.ack();
      this.committed += msgs.length;
      this.transactions++;
    }
  }

  /** Sustained: publishes `events` (64 PubAcks outstanding, like the floor) while the consumer commits them. */
  async throughput(events: number, tag: string, timeoutMs: number): Promise<BatchedFloorThroughput> {
    const target = this.committed + events;
    const transactions0 = this.transactions;
    const committed0 = this.committed;
    const js = this.nc.jetstream();
    const started = now();
    await closedLoop(events, 64, async (i) => {
      const envelope = makeEnvelope('agent.question.declare', `p${i % 10}`, declareData(i, tag));
      await js.publish(`${BATCH_SUBJECT}.p${i % 10}`, encodeJson(envelope), { msgID: envelope.eventId });
    });
    const published = now();
    await until(() => this.committed >= target, `${events} batched floor commits`, timeoutMs);
    return {
      eventsPerSecond: events / ((now() - started) / 1000),
      events,
      meanBatch: (this.committed - committed0) / (this.transactions - transactions0),
      publishedPerSecond: events / ((published - started) / 1000),
    };
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.messages?.stop();
    this.wakeAll();
    await Promise.allSettled(this.workers);
    await this.ds.destroy();
  }
}
