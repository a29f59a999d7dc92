import { mkdirSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { connect, type NatsConnection } from 'nats';
import { Client } from 'pg';
import { AgentEvent, makeEnvelope, OpenqEvent, STREAMS } from '@openq/contracts';
import { DEV_JWT_SECRET, type OpenqServiceName } from '@openq/platform';
import {
  createTestDatabase,
  freePort,
  startNatsServer,
  waitFor,
  type TestDatabase,
  type TestNatsServer,
} from '@openq/testing';
import { mintDevToken } from '../../tools/token';
import {
  CLI,
  inBatches,
  metric,
  Probe,
  ready,
  ROOT,
  SCHEMAS,
  spawnReplica,
  url,
  type Replica,
} from './scale-support';

/*
 * Scale-out on one machine: TWO replicas of every service, each its own process started the
 * production way (`node dist/tools/cli.js start <service>`, after `npm run build`), against a NATS
 * server and a database of this test's own. Under load it shows that replicas share the work
 * without doing any of it twice: each event applied once, each outbox row published once, requests
 * spread over both replicas, each idle gate cycle parked once by two sweepers.
 */

const SERVICES: OpenqServiceName[] = ['questions', 'gates', 'context', 'gateway'];
const REPLICAS = 2;
const P = 'scale1';
const DECLARES = 500;
/** Declarations published a second time under a new Nats-Msg-Id (past the dedupe window, as a redelivery would be). */
const REDELIVERED = 50;
const ANSWERS = 100;
const LISTS = 40;
const IDLE_CYCLES = 20;
/** Repos whose tasks (orders 1, 2, 3) are published back to back, interleaved. */
const ORDER_REPOS = 40;

let nats: TestNatsServer;
let db: TestDatabase;
let nc: NatsConnection;
let pg: Client;
let probe: Probe;
const replicas: Replica[] = [];
const figures: Record<string, unknown> = {};

function of(service: OpenqServiceName): Replica[] {
  return replicas.filter((r) => r.service === service);
}

function declaration(i: number) {
  return {
    sessionId: `s${i % 7}`,
    sessionAuthorId: 'ana',
    autor: 'criativo',
    pergunta: `Scale question ${i}: accept lowercase codes?`,
    sugestao: 'Yes',
    afeta: { regras: [`RN-${i % 13}`], historias: [`H-${i % 5}`], tarefas: [`T-${i % 11}`] },
    toolCallId: `scale-tc-${i}`,
  };
}

beforeAll(async () => {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` first (\`npm test\` does)`);
  const started = Date.now();
  nats = await startNatsServer();
  db = await createTestDatabase('openq_scale');
  nc = await connect({ servers: nats.url });
  pg = new Client({ connectionString: db.url });
  await pg.connect();
  probe = new Probe(nc, pg);
  const env = {
    NODE_ENV: 'test',
    LOG_LEVEL: 'info',
    HOST: '127.0.0.1',
    NATS_URL: nats.url,
    DATABASE_URL: db.url,
    // Idle cycles go stale after 1 s and park after 2 s; both gates replicas sweep every second.
    GATE_STALE_AFTER_S: '1',
    GATE_PARK_AFTER_S: '2',
    GATE_SWEEP_INTERVAL_S: '1',
    // This proves distribution, not latency: a loaded CI machine must not turn slow replies into 504s.
    GATEWAY_RPC_TIMEOUT_MS: '20000',
  };
  // All eight at once: migrations (advisory lock) and stream/consumer provisioning race on purpose.
  for (const service of SERVICES)
    for (let i = 0; i < REPLICAS; i++) replicas.push(spawnReplica(service, i, await freePort(), env));
  await Promise.all(
    replicas.map((r) =>
      waitFor(() => ready(r), { timeoutMs: 90_000, intervalMs: 200, what: `${r.service}#${r.index} ready` }),
    ),
  );
  figures.startupMs = Date.now() - started;
});

afterAll(async () => {
  for (const r of replicas)
    if (r.child.exitCode === null && r.child.signalCode === null) r.child.kill('SIGTERM');
  await Promise.all(
    replicas.map(async (r) => {
      const timer = setTimeout(() => r.child.kill('SIGKILL'), 15_000);
      await r.exit;
      clearTimeout(timer);
    }),
  );
  await pg?.end();
  await nc?.close();
  await nats?.stop();
  await db?.drop();
  mkdirSync(join(ROOT, 'test', 'artifacts'), { recursive: true });
  writeFileSync(join(ROOT, 'test', 'artifacts', 'scale-out.json'), `${JSON.stringify(figures, null, 2)}\n`);
  process.stdout.write(`scale-out figures: ${JSON.stringify(figures)}\n`);
});

describe(`scale-out: ${REPLICAS} replicas of every service as separate processes`, () => {
  it(`applies ${DECLARES} declarations once each, though ${REDELIVERED} arrive twice and two replicas consume`, async () => {
    const started = Date.now();
    const envelopes = Array.from({ length: DECLARES }, (_, i) =>
      makeEnvelope(AgentEvent.QuestionDeclare, P, declaration(i)),
    );
    await inBatches(envelopes, 50, (e) => probe.publish(e));
    await inBatches(envelopes.slice(0, REDELIVERED), 25, (e) => probe.publish(e, `${e.eventId}-again`));
    await waitFor(
      async () =>
        (await probe.sql(
          `SELECT count(*) AS n FROM questions.question_log WHERE type = 'question.declared'`,
        )) === DECLARES,
      {
        timeoutMs: 60_000,
        intervalMs: 200,
        what: `${DECLARES} declarations in the log`,
      },
    );
    figures.declareMs = Date.now() - started;
    await waitFor(() => probe.consumersIdle(), {
      timeoutMs: 60_000,
      intervalMs: 200,
      what: 'every consumer drained',
    });

    expect(
      await probe.sql(
        `SELECT count(DISTINCT data->>'toolCallId') AS n FROM questions.question_log WHERE type = 'question.declared'`,
      ),
    ).toBe(DECLARES);
    expect(
      await probe.sql(
        `SELECT count(*) AS n FROM questions.inbox WHERE consumer = 'questions__agent_question_declare'`,
      ),
    ).toBe(DECLARES);
    const questions = of('questions');
    const acked = await Promise.all(
      questions.map((r) =>
        metric(r, 'openq_event_handling_duration_seconds_count', {
          consumer: 'questions__agent_question_declare',
          outcome: 'ack',
        }),
      ),
    );
    const duplicates = await Promise.all(
      questions.map((r) =>
        metric(r, 'openq_inbox_duplicates_total', { consumer: 'questions__agent_question_declare' }),
      ),
    );
    figures.declaresHandledPerReplica = acked;
    figures.duplicatesAbsorbedPerReplica = duplicates;
    expect(acked.reduce((a, b) => a + b, 0)).toBe(DECLARES + REDELIVERED);
    expect(duplicates.reduce((a, b) => a + b, 0)).toBe(REDELIVERED);
    // Both replicas pulled from the one durable consumer.
    for (const n of acked) expect(n).toBeGreaterThan(0);
  });

  it(`spreads ${LISTS} lists and ${ANSWERS} answers through both gateways over both questions replicas`, async () => {
    const started = Date.now();
    const [gw0, gw1] = of('gateway') as [Replica, Replica];
    const token = mintDevToken({ user: 'ana', project: P, role: 'viewer', secret: DEV_JWT_SECRET });
    const auth = { authorization: `Bearer ${token}` };
    const lists = await Promise.all(
      Array.from({ length: LISTS }, (_, i) =>
        fetch(url(i % 2 ? gw1 : gw0, `/projects/${P}/open-questions?limit=50`), { headers: auth }),
      ),
    );
    expect(lists.map((r) => r.status)).toEqual(Array(LISTS).fill(200));
    const { rows } = await pg.query<{ id: string }>(
      `SELECT question_id AS id FROM questions.question_log WHERE type = 'question.declared' ORDER BY position LIMIT $1`,
      [ANSWERS],
    );
    const statuses: number[] = [];
    await inBatches(rows, 10, async (row, i) => {
      const res = await fetch(url(i % 2 ? gw1 : gw0, `/projects/${P}/open-questions/${row.id}/answer`), {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ resposta: `answer ${i}` }),
      });
      statuses.push(res.status);
    });
    figures.httpMs = Date.now() - started;
    expect(statuses).toEqual(Array(ANSWERS).fill(200));
    expect(
      await probe.sql(`SELECT count(*) AS n FROM questions.question_log WHERE type = 'question.answered'`),
    ).toBe(ANSWERS);
    expect(
      await probe.sql(`SELECT count(*) AS n FROM questions.question_log WHERE type = 'decision.recorded'`),
    ).toBe(ANSWERS);
    // The open-questions gauge is read from the projection on each scrape, by either replica.
    for (const r of of('questions')) expect(await metric(r, 'openq_open_questions')).toBe(DECLARES - ANSWERS);

    const perReplica = await Promise.all(
      of('questions').map(async (r) => ({
        list: await metric(r, 'openq_request_duration_seconds_count', {
          service: 'questions',
          verb: 'list',
          status: 'ok',
        }),
        answer: await metric(r, 'openq_request_duration_seconds_count', {
          service: 'questions',
          verb: 'answer',
          status: 'ok',
        }),
      })),
    );
    figures.requestsPerQuestionsReplica = perReplica;
    expect(perReplica.reduce((a, r) => a + r.list, 0)).toBe(LISTS);
    expect(perReplica.reduce((a, r) => a + r.answer, 0)).toBe(ANSWERS);
    for (const r of perReplica) {
      expect(r.list).toBeGreaterThan(0);
      expect(r.answer).toBeGreaterThan(0);
    }
  });

  it(`parks each of ${IDLE_CYCLES} idle gate cycles once, with two replicas sweeping every second`, async () => {
    const started = Date.now();
    const starts = Array.from({ length: IDLE_CYCLES }, (_, i) =>
      makeEnvelope(AgentEvent.GateStarted, P, {
        taskId: `idle-task-${i}`,
        gate: 'qa',
        sessionId: 's-idle',
        sessionAuthorId: 'ana',
      }),
    );
    await inBatches(starts, 20, (e) => probe.publish(e));
    await waitFor(
      async () =>
        (await probe.sql(
          `SELECT count(*) AS n FROM gates.gate_cycle WHERE state = 'parked' AND parked_reason = 'idle'`,
        )) === IDLE_CYCLES,
      {
        timeoutMs: 30_000,
        intervalMs: 200,
        what: `${IDLE_CYCLES} cycles parked`,
      },
    );
    figures.parkMs = Date.now() - started;
    await waitFor(
      async () =>
        (await probe.outboxRows('published_at IS NULL')) === 0 &&
        (await probe.streamCount(STREAMS.openqEvents.name, `${OpenqEvent.GateRescueParked}.>`)) >=
          IDLE_CYCLES,
      {
        timeoutMs: 15_000,
        what: 'rescue_parked events published',
      },
    );
    expect(await probe.streamCount(STREAMS.openqEvents.name, `${OpenqEvent.GateRescueParked}.>`)).toBe(
      IDLE_CYCLES,
    );
    expect(
      await probe.sql(`SELECT count(*) AS n FROM gates.outbox WHERE subject LIKE $1`, [
        `${OpenqEvent.GateRescueParked}.%`,
      ]),
    ).toBe(IDLE_CYCLES);
    // Who parked what, from each replica's log line "idle sweep: N parked, …".
    figures.parkedPerGatesReplica = of('gates').map((r) =>
      [...r.output.join('').matchAll(/idle sweep: (\d+) parked/g)].reduce((sum, m) => sum + Number(m[1]), 0),
    );
  });

  it(`admits each repo's first task first, with tasks of ${ORDER_REPOS} repos published back to back and two gates replicas`, async () => {
    // Issue #15 item 8: the order-2 task of a repo was applied before its order-1 task and took
    // the repo's slot. Tasks of two projects and many repos, published interleaved as fast as
    // the broker takes them; whichever replica applies them, each repo admits its order-1 task.
    const projects = ['scale-o1', 'scale-o2'];
    const taskId = (project: string, repo: number, order: number) => `${project}-r${repo}-o${order}`;
    const envelopes = [];
    for (let order = 1; order <= 3; order++)
      for (let repo = 0; repo < ORDER_REPOS / projects.length; repo++)
        for (const project of projects)
          envelopes.push(
            makeEnvelope(AgentEvent.TaskCreated, project, {
              taskId: taskId(project, repo, order),
              repo: `repo-${repo}`,
              order,
              deps: [],
              labels: [],
            }),
          );
    await Promise.all(envelopes.map((e) => probe.publish(e)));
    const admitted = async () => {
      const { rows } = await pg.query<{ project: string; repo: string; task: string }>(
        `SELECT envelope->>'projectId' AS project, envelope->'data'->>'repo' AS repo, envelope->'data'->>'taskId' AS task
           FROM gates.outbox WHERE envelope->>'type' = $1 AND envelope->>'projectId' = ANY($2)`,
        [OpenqEvent.PipelineTaskAdmitted, projects],
      );
      return rows;
    };
    await waitFor(async () => (await admitted()).length >= ORDER_REPOS, {
      timeoutMs: 60_000,
      what: `one admission per repo (${ORDER_REPOS})`,
    });
    const rows = await admitted();
    expect(rows).toHaveLength(ORDER_REPOS); // the serial gate: one task in flight per repo
    for (const row of rows)
      expect(row.task).toBe(taskId(row.project, Number(row.repo.slice('repo-'.length)), 1));
    // Both gates replicas took part in applying them.
    for (const r of of('gates'))
      expect(
        await metric(r, 'openq_event_handling_duration_seconds_count', { type: AgentEvent.TaskCreated }),
      ).toBeGreaterThan(0);
  });

  it('publishes every outbox row exactly once across both relays of each service, and every consumer applied each event once', async () => {
    await waitFor(
      async () => (await probe.outboxRows('published_at IS NULL')) === 0 && (await probe.consumersIdle()),
      {
        timeoutMs: 30_000,
        what: 'outboxes and consumers drained',
      },
    );
    const jsm = await nc.jetstreamManager();
    const rows = await probe.outboxRows();
    const stream = (await jsm.streams.info(STREAMS.openqEvents.name)).state.messages;
    figures.outboxRows = rows;
    figures.openqEventsMessages = stream;
    expect(stream).toBe(rows);
    for (const schema of SCHEMAS) {
      const published = await Promise.all(
        of(schema).map((r) => metric(r, 'openq_outbox_published_total', { service: schema })),
      );
      figures[`${schema}RelayPublishedPerReplica`] = published;
      expect(published.reduce((a, b) => a + b, 0)).toBe(
        await probe.sql(`SELECT count(*) AS n FROM ${schema}.outbox`),
      );
      expect(await probe.sql(`SELECT count(*) AS n FROM ${schema}.dead_letter`)).toBe(0);
    }
    // Each durable consumer of OPENQ_EVENTS has one inbox row per message on its subjects (the
    // whole stream for one without a filter: a service's types riding one durable).
    const consumers = (await jsm.consumers.list(STREAMS.openqEvents.name).next()).filter((c) =>
      /^(questions|gates|context)__/.test(c.name),
    );
    expect(consumers.length).toBeGreaterThan(0);
    for (const c of consumers) {
      const schema = c.name.split('__')[0]!;
      const inbox = await probe.sql(`SELECT count(*) AS n FROM ${schema}.inbox WHERE consumer = $1`, [
        c.name,
      ]);
      expect({ consumer: c.name, inbox }).toEqual({
        consumer: c.name,
        inbox: await probe.streamCount(STREAMS.openqEvents.name, c.config.filter_subject ?? '>'),
      });
    }
  });

  it('stops every replica gracefully on SIGTERM', async () => {
    const started = Date.now();
    for (const r of replicas) r.child.kill('SIGTERM');
    const codes = await Promise.all(replicas.map((r) => r.exit));
    figures.shutdownMs = Date.now() - started;
    // A replica that did not stop cleanly says why (its own log's last lines; LOG_LEVEL as set above).
    const unclean = replicas
      .filter((_, i) => codes[i] !== 0)
      .map((r) => `${r.service}#${r.index}:\n${r.output.join('').slice(-2000)}`);
    if (unclean.length) console.log(`replicas that did not stop cleanly:\n${unclean.join('\n')}`);
    expect(codes).toEqual(replicas.map(() => 0));
  });
});
