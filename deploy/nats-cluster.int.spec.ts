import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect, type NatsConnection } from 'nats';
import { AgentEvent, eventSubject, makeEnvelope, STREAMS } from '@openq/contracts';
import { durableName, encodeJson } from '@openq/messaging';
import { loadConfig, type DomainService } from '@openq/platform';
import { createTestDatabase, freePort, natsServerBinary, waitFor, type TestDatabase } from '@openq/testing';
import { startQuestions } from '../services/questions/src/questions-service';
import { DEPLOY_DIR, natsConf } from './manifests';

/*
 * The checked-in nats.conf of deploy/k8s (hosts, ports and directories swapped for this machine)
 * forms a 3-node JetStream cluster; the questions service, told OPENQ_STREAM_REPLICAS=3, provisions
 * the R3 streams of deploy/nats/streams.json there and keeps working when a server dies.
 */

const SIZE = 3;
const P = 'cluster1';

interface Node {
  name: string;
  client: number;
  route: number;
  monitor: number;
  process: ChildProcess | null;
}

let dir: string;
let nodes: Node[];
let db: TestDatabase;
let nc: NatsConnection;
let questions: DomainService | null = null;

function localConf(node: Node): string {
  const edits: [RegExp, string | ((...m: string[]) => string)][] = [
    [/listen: 0\.0\.0\.0:4222/, `listen: 127.0.0.1:${node.client}`],
    [/http: 0\.0\.0\.0:8222/, `http: 127.0.0.1:${node.monitor}`],
    [/listen: 0\.0\.0\.0:6222/, `listen: 127.0.0.1:${node.route}`],
    [
      /nats-route:\/\/nats-(\d)\.nats-headless:6222/g,
      (_m, i) => `nats-route://127.0.0.1:${nodes[Number(i)]!.route}`,
    ],
    [/store_dir: \S+/, `store_dir: ${join(dir, node.name)}`],
    [/pid_file: \S+/, `pid_file: ${join(dir, `${node.name}.pid`)}`],
  ];
  return edits.reduce((conf, [pattern, replacement]) => {
    // Every edit must apply: otherwise this test would quietly run a configuration of its own.
    if (!pattern.test(conf)) throw new Error(`nats.conf no longer has ${pattern}`);
    pattern.lastIndex = 0;
    return conf.replace(pattern, replacement as string);
  }, natsConf());
}

async function startNode(node: Node): Promise<void> {
  const file = join(dir, `${node.name}.conf`);
  writeFileSync(file, localConf(node));
  node.process = spawn(natsServerBinary(), ['-c', file], {
    env: { ...process.env, SERVER_NAME: node.name },
    stdio: 'ignore',
  });
}

async function healthy(node: Node): Promise<boolean> {
  const res = await fetch(`http://127.0.0.1:${node.monitor}/healthz?js-enabled-only=true`).catch(() => null);
  return res?.status === 200;
}

async function stopNode(node: Node): Promise<void> {
  const child = node.process;
  node.process = null;
  if (!child || child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGKILL');
  await exited;
}

let asked = 0;
function declaration(toolCallId: string) {
  return {
    sessionId: 's1',
    sessionAuthorId: 'ana',
    autor: 'criativo',
    // Numbered: SPEC §12.3 would join two declarations of one text in a project.
    pergunta: `Does the cluster keep question ${++asked}?`,
    afeta: { regras: [], historias: [], tarefas: [] },
    toolCallId,
  };
}

async function declared(toolCallId: string): Promise<boolean> {
  const rows: unknown[] = await questions!.dataSource.query(
    `SELECT 1 FROM question_log WHERE type = 'question.declared' AND data->>'toolCallId' = $1`,
    [toolCallId],
  );
  return rows.length === 1;
}

async function publishDeclare(toolCallId: string): Promise<void> {
  const envelope = makeEnvelope(AgentEvent.QuestionDeclare, P, declaration(toolCallId));
  // Retried: right after a server dies the stream elects a new leader.
  await waitFor(
    () =>
      nc
        .jetstream()
        .publish(eventSubject(AgentEvent.QuestionDeclare, P), encodeJson(envelope), {
          msgID: envelope.eventId,
          timeout: 2000,
        })
        .then(() => true),
    {
      timeoutMs: 30_000,
      intervalMs: 250,
      what: `publish ${toolCallId}`,
    },
  );
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'openq-nats-cluster-'));
  nodes = [];
  for (let i = 0; i < SIZE; i++)
    nodes.push({
      name: `nats-${i}`,
      client: await freePort(),
      route: await freePort(),
      monitor: await freePort(),
      process: null,
    });
  for (const node of nodes) await startNode(node);
  for (const node of nodes)
    await waitFor(() => healthy(node), {
      timeoutMs: 30_000,
      intervalMs: 100,
      what: `${node.name} JetStream healthy`,
    });
  db = await createTestDatabase();
  const url = nodes.map((n) => `nats://127.0.0.1:${n.client}`).join(',');
  nc = await connect({ servers: url.split(','), maxReconnectAttempts: -1, reconnectTimeWait: 200 });
  const config = loadConfig(
    {
      NODE_ENV: 'test',
      LOG_LEVEL: 'error',
      HOST: '127.0.0.1',
      NATS_URL: url,
      DATABASE_URL: db.url,
      OPENQ_STREAM_REPLICAS: String(SIZE),
    },
    { authSecrets: false },
  );
  questions = await startQuestions(config, { embedded: true, httpPort: 0 });
});

afterAll(async () => {
  await questions?.close();
  await nc?.close();
  for (const node of nodes ?? []) await stopNode(node);
  await db?.drop();
  rmSync(dir, { recursive: true, force: true });
});

describe('deploy/k8s nats.conf as a 3-node JetStream cluster', () => {
  it('gets R3 streams and consumers from the services, equal to deploy/nats/streams.json, and survives losing a server', async () => {
    const rendered = JSON.parse(readFileSync(join(DEPLOY_DIR, 'nats', 'streams.json'), 'utf8')) as {
      streams: Record<string, unknown>[];
    };
    const jsm = await nc.jetstreamManager();
    for (const wanted of rendered.streams) {
      const info = await jsm.streams.info(wanted.name as string);
      expect(info.config).toMatchObject(wanted);
      expect(info.cluster?.replicas).toHaveLength(SIZE - 1);
    }
    const consumer = await jsm.consumers.info(
      STREAMS.agentEvents.name,
      durableName('questions', AgentEvent.QuestionDeclare),
    );
    expect(consumer.cluster?.replicas).toHaveLength(SIZE - 1);

    await publishDeclare('before-failover');
    await waitFor(() => declared('before-failover'), {
      timeoutMs: 15_000,
      what: 'first declaration applied',
    });

    // Lose the server that leads AGENT_EVENTS: the other two still make a quorum.
    const leader = (await jsm.streams.info(STREAMS.agentEvents.name)).cluster?.leader;
    const victim = nodes.find((n) => n.name === leader)!;
    expect(victim).toBeDefined();
    await stopNode(victim);
    await publishDeclare('after-failover');
    // The consumer's pull is re-issued after missed heartbeats and a new leader election: on a
    // loaded 2-core machine that takes tens of seconds.
    await waitFor(() => declared('after-failover'), {
      timeoutMs: 75_000,
      what: 'declaration applied with one server down',
    });
    // The JetStream API may time out while the meta leader settles: ask until it answers.
    const after = await waitFor(
      async () => (await nc.jetstreamManager()).streams.info(STREAMS.agentEvents.name).catch(() => null),
      { timeoutMs: 30_000, what: 'stream info after the failover' },
    );
    expect(after.cluster?.leader).not.toBe(leader);
  });
});
