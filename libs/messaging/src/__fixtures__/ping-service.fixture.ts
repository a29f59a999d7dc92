import { Controller, Module, type INestMicroservice } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Ctx, EventPattern, MessagePattern, Payload } from '@nestjs/microservices';
import { IsInt, IsString, Max, Min } from 'class-validator';
import type { JetStreamManager, NatsConnection } from 'nats';
import type { TestBroker } from '@openq/testing';
import type { DataSource } from 'typeorm';
import type { MigrationInterface, QueryRunner } from 'typeorm';
import { defineMessage, eventSubject, makeEnvelope, MessageRegistry, refusal } from '@openq/contracts';
import { deferWrite, openDatabase } from '@openq/persistence';
import { encodeJson } from '../codec';
import { ensureEventConsumer, ensureStreams } from '../provisioning';
import { InboundProcessor, type EventHandlerFn } from '../inbound';
import {
  GroupCommitter,
  JetStreamServer,
  RethrowErrorsFilter,
  RetryLaterError,
  type JetStreamEventContext,
  type JetStreamServerOptions,
} from '../index';

/** A minimal service used to prove the messaging guarantees against real NATS and PostgreSQL. */
export class PingData {
  @IsInt() @Min(0) n!: number;
  @IsString() note!: string;
}
export class EchoRequest {
  @IsString() text!: string;
}
export class SlowRequest {
  @IsInt() @Min(0) @Max(60_000) ms!: number;
}

export const PING = 'agent.test.ping';
export const PONGED = 'question.test_ponged';
export const eventRegistry = new MessageRegistry([defineMessage(PING, PingData)]);
export const commandRegistry = new MessageRegistry([
  defineMessage('openq.testsvc.echo', EchoRequest),
  defineMessage('openq.testsvc.slow', SlowRequest),
]);

export class EffectsTable1764470000001 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    // applied_order: the order effects were written in (commit order within one subject, whose messages never overlap).
    await q.query(
      `CREATE TABLE effects (event_id uuid PRIMARY KEY, n integer NOT NULL, applied_by text NOT NULL, project_id text, applied_order bigserial NOT NULL)`,
    );
  }
  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE effects`);
  }
}

/**
 * Notes the handler obeys, to shape a test's load: `sleep:<ms>` after writing, `outage-once` (RetryLaterError on
 * the first try), `deferred` (its effect as a deferred write, and no event: a unit that can go as one statement),
 * `read-then-deferred` (the same after a read: a unit that cannot).
 */
const outagesSeen = new Set<string>();

@Controller()
class PingController {
  static instance = 'a';

  @EventPattern(PING)
  async ping(@Payload() data: PingData, @Ctx() ctx: JetStreamEventContext): Promise<void> {
    const { manager, envelope, outbox } = ctx.event;
    if (data.note === 'outage-once' && !outagesSeen.has(envelope.eventId)) {
      outagesSeen.add(envelope.eventId);
      throw new RetryLaterError('a dependency is down for this message, once');
    }
    if (data.note === 'read-then-deferred') await manager.query(`SELECT 1`); // a statement of its own
    if (data.note === 'deferred' || data.note === 'read-then-deferred') {
      // Writes only, deferred: the message can be applied in one statement (`inOneStatement`).
      await deferWrite(
        manager,
        `INSERT INTO effects (event_id, n, applied_by, project_id) VALUES ($1, $2, $3, $4)`,
        [envelope.eventId, data.n, PingController.instance, envelope.projectId],
      );
      return;
    }
    // A plain INSERT: a second application of the same event would fail, not hide.
    await manager.query(`INSERT INTO effects (event_id, n, applied_by, project_id) VALUES ($1, $2, $3, $4)`, [
      envelope.eventId,
      data.n,
      PingController.instance,
      envelope.projectId,
    ]);
    outbox.event(PONGED, envelope.projectId, { n: data.n });
    const sleep = /^sleep:(\d+)$/.exec(data.note);
    if (sleep) await new Promise((r) => setTimeout(r, Number(sleep[1])));
  }

  /** A committer that keeps no one waiting: with its slot busy, every further request is refused. */
  private readonly crowded = new GroupCommitter<string, string>(
    (units) => new Promise((resolve) => setTimeout(() => resolve(units.map((u) => u.input)), 200)),
    { name: 'echo', maxConcurrentGroups: 1, maxQueued: 0, retryAfterSeconds: 2 },
  );

  @MessagePattern('openq.testsvc.echo')
  echo(@Payload() data: EchoRequest): unknown {
    if (data.text === 'refuse') return refusal(409, 'pergunta_ja_respondida', 'refused on purpose');
    if (data.text.startsWith('crowd')) return this.crowded.submit(data.text).then((echoed) => ({ echoed }));
    return { echoed: data.text };
  }

  @MessagePattern('openq.testsvc.slow')
  async slow(@Payload() data: SlowRequest): Promise<unknown> {
    await new Promise((r) => setTimeout(r, data.ms));
    return { slept: data.ms };
  }
}

@Module({ controllers: [PingController] })
class PingModule {}

export const PING_SCHEMA = 'pingsvc';

export async function openPingDatabase(url: string) {
  return openDatabase({ url, schema: PING_SCHEMA, migrations: [EffectsTable1764470000001] });
}

export async function startPingService(
  nc: NatsConnection,
  databaseUrl: string,
  overrides: Partial<JetStreamServerOptions> = {},
): Promise<{ app: INestMicroservice; server: JetStreamServer; close(): Promise<void> }> {
  const dataSource = await openPingDatabase(databaseUrl);
  const server = new JetStreamServer({
    service: 'testsvc',
    nc,
    dataSource,
    schema: PING_SCHEMA,
    databaseUrl,
    eventRegistry,
    commandRegistry,
    concurrency: 8,
    ...overrides,
  });
  const app = await NestFactory.createMicroservice(PingModule, { strategy: server, logger: ['error'] });
  app.useGlobalFilters(new RethrowErrorsFilter()); // as every service does
  await app.listen();
  return {
    app,
    server,
    close: async () => {
      await app.close();
      await dataSource.destroy();
    },
  };
}

/** Publishes a ping of `projectId` (its subject `agent.test.ping.<projectId>`); its event id. */
export async function publishPing(
  nc: NatsConnection,
  n: number,
  projectId = 'p1',
  note = 'hi',
): Promise<string> {
  const envelope = makeEnvelope(PING, projectId, { n, note });
  await nc
    .jetstream()
    .publish(eventSubject(PING, projectId), encodeJson(envelope), { msgID: envelope.eventId });
  return envelope.eventId;
}

/** The `n` a counting query returns (`SELECT count(*) AS n …`). */
export async function countOf(ds: DataSource, sql: string): Promise<number> {
  const [row] = await ds.query(sql);
  return Number((row as { n: string }).n);
}

/**
 * `consumer`'s durable on the ping type, as the delivery specs drive it by hand: redelivered after
 * `ackWaitMs`, never given up, at most 10 in flight. The stream must exist (`ensureStreams`).
 */
export function pingDurable(jsm: JetStreamManager, consumer: string, ackWaitMs = 1000) {
  return ensureEventConsumer(jsm, consumer, PING, { ackWaitMs, maxDeliver: -1, maxAckPending: 10 });
}

/**
 * An `InboundProcessor` of `handler` on its own ping durable, driven by hand: `next()` pulls the
 * durable's next message and tells the processor it arrived; `publish` sends a ping envelope under
 * a broker message id of the caller's (a copy under a new id passes the broker's dedup).
 */
export async function pingProcessor(t: TestBroker, name: string, handler: EventHandlerFn) {
  const ds = await openPingDatabase(t.db.url);
  const jsm = await t.nc.jetstreamManager();
  await ensureStreams(jsm);
  const { stream, durable } = await pingDurable(jsm, name);
  const processor = new InboundProcessor(ds, handler, { consumer: durable, registry: eventRegistry });
  const consumer = await t.nc.jetstream().consumers.get(stream, durable);
  const next = async () => {
    const msg = (await consumer.next({ expires: 5000 }))!;
    processor.received(msg);
    return msg;
  };
  const publish = (envelope: ReturnType<typeof makeEnvelope>, msgID = envelope.eventId) =>
    t.nc.jetstream().publish(eventSubject(PING, envelope.projectId), encodeJson(envelope), { msgID });
  return { ds, processor, next, publish };
}
