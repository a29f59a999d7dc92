/**
 * Node CPU per event handled by one service shaped like openq's (a `JetStreamServer` under a Nest
 * microservice, one `@EventPattern` handler that writes one row and one outbox event), against a
 * nats-server and a database of its own, and Node CPU per SQL statement of the transaction path
 * (TypeORM `manager.query` inside `dataSource.transaction` against the pooled pg client itself):
 * `npm run build && node dist/test/bench/micro/consumer-cpu.js [events per round] [rounds] [statements]`.
 *
 * - lone: publish one event, wait until it is acked, repeat (the lone-message path, one
 *   transaction per message);
 * - backlog: 250 events over 8 projects published at once, waited for, repeated (batches).
 *
 * CPU is `process.cpuUsage()` of this whole process: the publisher's `js.publish` and the
 * after-commit publish of the outbox row are in it too (the same in both builds compared).
 * Under `--cpu-prof` the same run gives the profile of the consumer path.
 */
import '../../../tools/register-paths';
import { Controller, Module, type INestMicroservice } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import { IsInt, IsString, Min } from 'class-validator';
import { connect, type NatsConnection } from 'nats';
import type { PoolClient } from 'pg';
import type { DataSource, MigrationInterface, QueryRunner } from 'typeorm';
import { defineMessage, eventSubject, makeEnvelope, MessageRegistry } from '@openq/contracts';
import {
  encodeJson,
  ensureStreams,
  JetStreamServer,
  parseEventMessage,
  RethrowErrorsFilter,
  type JetStreamEventContext,
} from '@openq/messaging';
import { openDatabase } from '@openq/persistence';
import { createTestDatabase, startNatsServer } from '@openq/testing';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const cpu = (used: NodeJS.CpuUsage) => used.user + used.system;

class PingData {
  @IsInt() @Min(0) n!: number;
  @IsString() note!: string;
}
const PING = 'agent.micro.ping';
const PONGED = 'question.micro_ponged';
const registry = new MessageRegistry([defineMessage(PING, PingData)]);

class EffectsTable1764470000001 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE effects (event_id uuid PRIMARY KEY, n integer NOT NULL, project_id text)`);
    await q.query(`CREATE TABLE probe (id bigserial PRIMARY KEY, n integer NOT NULL)`);
  }
  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE effects`);
    await q.query(`DROP TABLE probe`);
  }
}

@Controller()
class PingController {
  @EventPattern(PING)
  async ping(@Payload() data: PingData, @Ctx() ctx: JetStreamEventContext): Promise<void> {
    const { manager, envelope, outbox } = ctx.event;
    await manager.query(`INSERT INTO effects (event_id, n, project_id) VALUES ($1, $2, $3)`, [
      envelope.eventId,
      data.n,
      envelope.projectId,
    ]);
    outbox.event(PONGED, envelope.projectId, { n: data.n });
  }
}

@Module({ controllers: [PingController] })
class PingModule {}

interface Service {
  app: INestMicroservice;
  server: JetStreamServer;
  dataSource: DataSource;
  /** Resolves once the consumer has settled `count` messages in all. */
  settled(count: number): Promise<void>;
}

async function startService(nc: NatsConnection, url: string): Promise<Service> {
  const dataSource = await openDatabase({ url, schema: 'microsvc', migrations: [EffectsTable1764470000001] });
  const server = new JetStreamServer({
    service: 'microsvc',
    nc,
    dataSource,
    schema: 'microsvc',
    databaseUrl: url,
    eventRegistry: registry,
    concurrency: 8,
    sampleIntervalMs: 0,
  });
  const app = await NestFactory.createMicroservice(PingModule, { strategy: server, logger: ['error'] });
  app.useGlobalFilters(new RethrowErrorsFilter());
  await app.listen();
  // `handled` counts settled messages: a setter wakes the one waiting, without polling.
  const runner = server.consumerRunners[0]!;
  let handled = runner.handled;
  let waiting: { count: number; resolve: () => void } | null = null;
  Object.defineProperty(runner, 'handled', {
    get: () => handled,
    set: (value: number) => {
      handled = value;
      if (waiting && handled >= waiting.count) {
        const { resolve } = waiting;
        waiting = null;
        resolve();
      }
    },
  });
  return {
    app,
    server,
    dataSource,
    settled: (count) =>
      handled >= count ? Promise.resolve() : new Promise((resolve) => (waiting = { count, resolve })),
  };
}

async function publish(nc: NatsConnection, i: number, projects: number): Promise<void> {
  const envelope = makeEnvelope(PING, `p${i % projects}`, { n: i, note: 'x' });
  await nc.jetstream().publish(eventSubject(PING, envelope.projectId), encodeJson(envelope), {
    msgID: envelope.eventId,
  });
}

let sent = 0;

/** µs of process CPU per message, one message at a time. */
async function lone(nc: NatsConnection, svc: Service, events: number): Promise<number> {
  const before = process.cpuUsage();
  for (let i = 0; i < events; i++) {
    await publish(nc, sent++, 8);
    await svc.settled(sent);
  }
  return cpu(process.cpuUsage(before)) / events;
}

const BACKLOG = 250;

/** µs of process CPU per message, in backlogs of `BACKLOG` over 8 projects. */
async function backlog(nc: NatsConnection, svc: Service, events: number): Promise<number> {
  const before = process.cpuUsage();
  for (let done = 0; done < events; done += BACKLOG) {
    await Promise.all(Array.from({ length: BACKLOG }, () => publish(nc, sent++, 8)));
    await svc.settled(sent);
  }
  return cpu(process.cpuUsage(before)) / (Math.ceil(events / BACKLOG) * BACKLOG);
}

const STATEMENTS = 10;
const PROBE = `INSERT INTO probe (n) VALUES ($1)`;

/** One transaction of `STATEMENTS` inserts through TypeORM. */
async function typeormTransaction(ds: DataSource): Promise<void> {
  await ds.transaction(async (manager) => {
    for (let s = 0; s < STATEMENTS; s++) await manager.query(PROBE, [s]);
  });
}

/** The same transaction on a client of the same pool (prepared alike), without TypeORM. */
async function pgTransaction(ds: DataSource): Promise<void> {
  const pool = (ds.driver as unknown as { master: { connect(): Promise<PoolClient> } }).master;
  const client = await pool.connect();
  try {
    await client.query('START TRANSACTION');
    for (let s = 0; s < STATEMENTS; s++) await client.query(PROBE, [s]);
    await client.query('COMMIT');
  } finally {
    client.release();
  }
}

/**
 * µs of Node CPU per statement, TypeORM and pg, in alternating chunks of 20 transactions, so
 * that both see the same load of the machine.
 */
async function statements(ds: DataSource, transactions: number): Promise<{ typeorm: number; pg: number }> {
  const used = { typeorm: 0, pg: 0 };
  for (let done = 0, turn = 0; done < transactions; done += 20, turn++) {
    for (const side of turn % 2 === 0 ? (['typeorm', 'pg'] as const) : (['pg', 'typeorm'] as const)) {
      const before = process.cpuUsage();
      for (let t = 0; t < 20; t++) await (side === 'pg' ? pgTransaction(ds) : typeormTransaction(ds));
      used[side] += cpu(process.cpuUsage(before));
    }
  }
  const count = Math.ceil(transactions / 20) * 20 * STATEMENTS;
  return { typeorm: used.typeorm / count, pg: used.pg / count };
}

/**
 * µs of CPU per message of a consumer's parse alone (`parseEventMessage`: JSON, the envelope and
 * its data validated with class-validator, as for every event from outside), in a loop.
 */
function parses(count: number): number {
  const msgs = Array.from({ length: 100 }, (_, i) => {
    const envelope = makeEnvelope(PING, `p${i % 8}`, { n: i, note: 'x' });
    return { subject: eventSubject(PING, envelope.projectId), data: encodeJson(envelope) };
  });
  const before = process.cpuUsage();
  for (let i = 0; i < count; i++) {
    if (!parseEventMessage(msgs[i % msgs.length]!, registry).ok) throw new Error('refused');
  }
  return cpu(process.cpuUsage(before)) / count;
}

async function main(): Promise<void> {
  const events = Number(process.argv[2] ?? 2_000);
  const rounds = Number(process.argv[3] ?? 3);
  // `statements`: the per-statement rows alone (3 × events transactions a round), no messages.
  const statementsOnly = process.argv[4] === 'statements';
  const nats = await startNatsServer();
  const db = await createTestDatabase('openq_micro');
  const nc = await connect({ servers: nats.url, noAsyncTraces: true }); // as libs/platform connects
  const pub = await connect({ servers: nats.url, noAsyncTraces: true });
  await ensureStreams(await nc.jetstreamManager());
  const svc = await startService(nc, db.url);
  const runs = {
    lone: [] as number[],
    backlog: [] as number[],
    typeorm: [] as number[],
    pg: [] as number[],
    parse: [] as number[],
  };
  try {
    await lone(pub, svc, 500); // warm-up of every path
    await backlog(pub, svc, 2 * BACKLOG);
    await statements(svc.dataSource, 100);
    parses(5_000);
    for (let r = 0; r < rounds; r++) {
      if (!statementsOnly) {
        runs.lone.push(await lone(pub, svc, events));
        runs.backlog.push(await backlog(pub, svc, events * 2));
      }
      const perStatement = await statements(svc.dataSource, statementsOnly ? events : events / 4);
      runs.typeorm.push(perStatement.typeorm);
      runs.parse.push(parses(events * 10));
      runs.pg.push(perStatement.pg);
    }
  } finally {
    await svc.app.close();
    await svc.dataSource.destroy();
    await pub.close();
    await nc.close();
    await nats.stop();
    await db.drop();
  }
  const row = (what: string, xs: number[]) => {
    if (xs.length > 0)
      console.log(`| ${what} | ${median(xs).toFixed(1)} | ${xs.map((x) => x.toFixed(1)).join(', ')} |`);
  };
  console.log(`| path | Node CPU (µs, median of ${rounds}) | rounds |`);
  console.log('| --- | ---: | --- |');
  row('per message, lone (publish, wait, repeat)', runs.lone);
  row(`per message, backlog of ${BACKLOG} (batches)`, runs.backlog);
  row('per message, parse and validate alone (parseEventMessage)', runs.parse);
  row(`per statement, TypeORM manager.query (${STATEMENTS} per transaction)`, runs.typeorm);
  row(`per statement, pg client of the pool (${STATEMENTS} per transaction)`, runs.pg);
  console.log(`TypeORM over pg: ${(median(runs.typeorm) - median(runs.pg)).toFixed(1)} µs per statement`);
}

void main().catch((error) => {
  console.error(error);
  process.exit(1);
});
