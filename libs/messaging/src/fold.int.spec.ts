import { Controller, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import { AckPolicy, DeliverPolicy } from 'nats';
import type { DataSource, MigrationInterface, QueryRunner } from 'typeorm';
import { EVERY_OPENQ_EVENT, STREAMS, eventSubject, makeEnvelope } from '@openq/contracts';
import { openDatabase } from '@openq/persistence';
import { eachTestNatsAndDatabase, waitFor } from '@openq/testing';
import { encodeJson } from './codec';
import {
  JetStreamServer,
  RethrowErrorsFilter,
  type JetStreamEventContext,
  type JetStreamServerOptions,
} from './index';
import { ensureEventConsumer, ensureStreams } from './provisioning';
import { durableName } from './topology';

/*
 * A service with a handler of the whole stream carries its other types of that stream on that one
 * durable (docs/decisions.md, "A service's types ride its whole-stream durable"): one delivery,
 * claim and transaction per message for all its handlers. A folded type's durable left by an earlier
 * version is drained up to where the stream stood at start, then deleted.
 */

const SERVICE = 'foldsvc';
const TYPED = 'question.test_folded';
const OTHER = 'question.test_unhandled';
const SCHEMA = 'foldsvc';

class SeenTable1764470000002 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE TABLE seen (handler text NOT NULL, event_id uuid NOT NULL, PRIMARY KEY (handler, event_id))`,
    );
  }
  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE seen`);
  }
}

/**
 * The typed handler's effect, idempotent by its own key as a folded chain must be (an upgrade's
 * drain overlaps the whole-stream durable); the count of tries is kept apart.
 */
async function seeTyped(ctx: JetStreamEventContext): Promise<void> {
  await ctx.event.manager.query(
    `INSERT INTO seen (handler, event_id) VALUES ('typed', $1) ON CONFLICT DO NOTHING`,
    [ctx.event.envelope.eventId],
  );
}

@Controller()
class FoldController {
  @EventPattern(EVERY_OPENQ_EVENT)
  async whole(@Payload() _data: unknown, @Ctx() ctx: JetStreamEventContext): Promise<void> {
    // A plain insert: the whole-stream handler applied twice would fail, not hide.
    await ctx.event.manager.query(`INSERT INTO seen (handler, event_id) VALUES ('whole', $1)`, [
      ctx.event.envelope.eventId,
    ]);
  }

  @EventPattern(TYPED)
  typed(@Payload() _data: unknown, @Ctx() ctx: JetStreamEventContext): Promise<void> {
    return seeTyped(ctx);
  }
}

@Module({ controllers: [FoldController] })
class FoldModule {}

/** A service with handlers of some types of the stream and none of the whole stream. */
@Controller()
class TypedOnlyController {
  @EventPattern(TYPED)
  typed(@Payload() _data: unknown, @Ctx() ctx: JetStreamEventContext): Promise<void> {
    return seeTyped(ctx);
  }
}

@Module({ controllers: [TypedOnlyController] })
class TypedOnlyModule {}

const t = eachTestNatsAndDatabase();

beforeEach(async () => {
  await ensureStreams(await t.nc.jetstreamManager());
});

async function startService(
  overrides: Partial<JetStreamServerOptions> = {},
  module: typeof FoldModule | typeof TypedOnlyModule = FoldModule,
) {
  const dataSource = await openDatabase({
    url: t.db.url,
    schema: SCHEMA,
    migrations: [SeenTable1764470000002],
  });
  const server = new JetStreamServer({
    service: SERVICE,
    nc: t.nc,
    dataSource,
    schema: SCHEMA,
    databaseUrl: t.db.url,
    concurrency: 4,
    relay: false,
    ...overrides,
  });
  const app = await NestFactory.createMicroservice(module, { strategy: server, logger: ['error'] });
  app.useGlobalFilters(new RethrowErrorsFilter());
  await app.listen();
  return {
    dataSource,
    close: async () => {
      await app.close();
      await dataSource.destroy();
    },
  };
}

async function publish(type: string, n: number): Promise<string[]> {
  const js = t.nc.jetstream();
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const envelope = makeEnvelope(type, `p${i % 3}`, { i });
    await js.publish(eventSubject(type, envelope.projectId), encodeJson(envelope), {
      msgID: envelope.eventId,
    });
    ids.push(envelope.eventId);
  }
  return ids;
}

async function durables(): Promise<string[]> {
  const jsm = await t.nc.jetstreamManager();
  return (await jsm.consumers.list(STREAMS.openqEvents.name).next()).map((c) => c.name).sort();
}

async function seen(ds: { query(sql: string): Promise<unknown> }): Promise<Record<string, number>> {
  const rows = (await ds.query(`SELECT handler, count(*)::int AS n FROM seen GROUP BY handler`)) as {
    handler: string;
    n: number;
  }[];
  return Object.fromEntries(rows.map((r) => [r.handler, r.n]));
}

/** Fetches the first `n` messages of a durable and acks them, as an earlier version did: how many. */
async function ackFirst(consumer: { stream: string; durable: string }, n: number): Promise<number> {
  const pulled = await t.nc.jetstream().consumers.get(consumer.stream, consumer.durable);
  const batch = await pulled.fetch({ max_messages: n, expires: 5_000 });
  let acked = 0;
  for await (const m of batch) {
    m.ack();
    if (++acked === n) break;
  }
  return acked;
}

/** Once `n` typed messages are applied and the old durable is gone: their ids, sorted. */
async function typedOnceDrained(ds: DataSource, oldDurable: string, n: number): Promise<string[]> {
  await waitFor(async () => (await seen(ds)).typed === n, { timeoutMs: 20_000 });
  await waitFor(async () => !(await durables()).includes(oldDurable), { timeoutMs: 20_000 });
  const typed = (await ds.query(`SELECT event_id FROM seen WHERE handler = 'typed'`)) as {
    event_id: string;
  }[];
  return typed.map((r) => r.event_id).sort();
}

describe("a service's types ride its whole-stream durable", () => {
  it('makes one durable, and applies each handler once per message of its type', async () => {
    const service = await startService();
    try {
      expect(await durables()).toEqual([durableName(SERVICE, EVERY_OPENQ_EVENT)]);
      await publish(TYPED, 30);
      await publish(OTHER, 10);
      await waitFor(async () => (await seen(service.dataSource)).whole === 40, { timeoutMs: 20_000 });
      await waitFor(async () => (await seen(service.dataSource)).typed === 30, { timeoutMs: 5_000 });
      expect(await seen(service.dataSource)).toEqual({ whole: 40, typed: 30 });
    } finally {
      await service.close();
    }
  });

  it("drains a folded type's old durable up to where the stream stood, then deletes it", async () => {
    const jsm = await t.nc.jetstreamManager();
    // An earlier version: the typed durable of its own, and the whole-stream one, which has
    // already applied (acked) what was published then: only the old durable holds the typed work.
    const old = await ensureEventConsumer(jsm, SERVICE, TYPED);
    const whole = await ensureEventConsumer(jsm, SERVICE, EVERY_OPENQ_EVENT);
    const before = await publish(TYPED, 12);
    expect(await ackFirst(whole, 12)).toBe(12);
    expect((await jsm.consumers.info(old.stream, old.durable)).config.ack_policy).toBe(AckPolicy.Explicit);

    const service = await startService();
    try {
      const after = await publish(TYPED, 8);
      expect(await typedOnceDrained(service.dataSource, old.durable, 20)).toEqual(
        [...before, ...after].sort(),
      );
      // The 8 published after the start came through the whole stream; the 12 before, drained.
      expect((await seen(service.dataSource)).whole).toBe(8);
      expect(await durables()).toEqual([durableName(SERVICE, EVERY_OPENQ_EVENT)]);
    } finally {
      await service.close();
    }
  });

  it('carries the types of a service told to on the whole-stream durable, without a handler of it', async () => {
    const service = await startService({ wholeStream: true }, TypedOnlyModule);
    const whole = durableName(SERVICE, EVERY_OPENQ_EVENT);
    try {
      expect(await durables()).toEqual([whole]);
      await publish(OTHER, 10);
      await publish(TYPED, 30);
      await publish(OTHER, 10);
      await waitFor(async () => (await seen(service.dataSource)).typed === 30, { timeoutMs: 20_000 });
      // The type it does not handle is acked without effect: nothing left, nothing dead-lettered.
      const jsm = await t.nc.jetstreamManager();
      await waitFor(
        async () => {
          const info = await jsm.consumers.info(STREAMS.openqEvents.name, whole);
          return info.num_pending === 0 && info.num_ack_pending === 0;
        },
        { timeoutMs: 20_000 },
      );
      expect(await seen(service.dataSource)).toEqual({ typed: 30 });
      expect(await service.dataSource.query(`SELECT count(*)::int AS n FROM dead_letter`)).toEqual([
        { n: 0 },
      ]);
    } finally {
      await service.close();
    }
  });

  it('starts the whole-stream durable an upgrade makes after what the old durables acked', async () => {
    const jsm = await t.nc.jetstreamManager();
    // The earlier version: a durable per type, which applied (acked) 12 messages and holds 3 more.
    const old = await ensureEventConsumer(jsm, SERVICE, TYPED);
    await publish(TYPED, 12);
    expect(await ackFirst(old, 12)).toBe(12);
    await waitFor(
      async () => (await jsm.consumers.info(old.stream, old.durable)).ack_floor.stream_seq === 12,
    );
    const held = await publish(TYPED, 3);

    const service = await startService({ wholeStream: true }, TypedOnlyModule);
    const whole = durableName(SERVICE, EVERY_OPENQ_EVENT);
    try {
      const after = await publish(TYPED, 5);
      // The history the old durable had applied is not applied again; what it held, once.
      expect(await typedOnceDrained(service.dataSource, old.durable, 8)).toEqual([...held, ...after].sort());
      const { config } = await jsm.consumers.info(STREAMS.openqEvents.name, whole);
      expect(config.deliver_policy).toBe(DeliverPolicy.StartSequence);
      expect(config.opt_start_seq).toBe(13);
      expect(await durables()).toEqual([whole]);
    } finally {
      await service.close();
    }
    // The next start finds it made and keeps it as it is.
    const again = await startService({ wholeStream: true }, TypedOnlyModule);
    await again.close();
    expect((await jsm.consumers.info(STREAMS.openqEvents.name, whole)).config.opt_start_seq).toBe(13);
  });

  it('keeps a durable per type in a service not told to and without a handler of the whole stream', async () => {
    const service = await startService({}, TypedOnlyModule);
    try {
      expect(await durables()).toEqual([durableName(SERVICE, TYPED)]);
    } finally {
      await service.close();
    }
  });

  it('keeps a durable for a type with a dead-letter step of its own, and applies it there', async () => {
    const service = await startService({ onInvalid: { [TYPED]: async () => undefined } });
    try {
      expect(await durables()).toEqual(
        [durableName(SERVICE, EVERY_OPENQ_EVENT), durableName(SERVICE, TYPED)].sort(),
      );
      await publish(TYPED, 10);
      await waitFor(async () => (await seen(service.dataSource)).whole === 10, { timeoutMs: 20_000 });
      await waitFor(async () => (await seen(service.dataSource)).typed === 10, { timeoutMs: 20_000 });
    } finally {
      await service.close();
    }
  });
});
