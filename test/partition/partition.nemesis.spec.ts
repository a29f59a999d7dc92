import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { STREAMS } from '@openq/contracts';
import { waitFor } from '@openq/testing';
import { Engine } from '../faults/support/engine';
import { checkWorkload, consumerStates, waitQuiet } from '../faults/support/invariants';
import { printFigures, printTable } from '../faults/support/report';
import { rng } from '../faults/support/rng';
import { Workload } from '../faults/support/workload';
import { NetnsCluster } from './support/netns-cluster';
import { clusterHealthy, Nemesis } from './support/nemesis';
import { checkSubjectOrder } from './support/order';
import { ReplicaStack } from './support/replica-stack';

/*
 * Issue #35 — a network partition loses no decision. The production shape of deploy/: a 3-node
 * JetStream cluster (deploy/k8s nats.conf, each server in a network namespace of its own), the R3
 * streams the services provision (OPENQ_STREAM_REPLICAS=3), two replicas of every service and
 * PostgreSQL on the host. While agents declare, people answer (agent events and clicks through
 * both gateways) and QA gates cycle, a nemesis partitions the AGENT_EVENTS leader from the
 * majority, cuts a questions replica off the broker, pauses the OPENQ_EVENTS leader past its
 * heartbeats, kills the meta leader and a gates replica and starts them again — one at a time,
 * each healed once the cluster reacted. Then: every acknowledged event applied once, every answer
 * once, every answered cycle resumed once, per-subject order kept, every consumer drained within
 * 30 s, nothing dead-lettered.
 *
 * Run with `npm run test:partition` (root: it makes namespaces, veths and a bridge). Replay a run
 * with FAULTS_SEED=<seed printed>; PARTITION_SCALE sizes the load (1 by default).
 */

const random = rng();
const SCALE = Number(process.env.PARTITION_SCALE ?? 1);
/** Each fault lasts at least this long: past NATS's Raft heartbeats and election timeouts. */
const MIN_HOLD_MS = 6000;
/** Lag back to 0 this long after the load ended (every fault healed before). */
const DRAIN_LIMIT_MS = 30_000;

let dir: string;
let cluster: NetnsCluster | null = null;
let stack: ReplicaStack | null = null;
let running: Workload | null = null;
const figures: Record<string, string | number | boolean> = {};

beforeAll(async () => {
  if (process.getuid?.() !== 0)
    throw new Error('the partition test makes network namespaces: run it as root');
  const started = Date.now();
  dir = mkdtempSync(join(tmpdir(), 'openq-partition-'));
  cluster = await NetnsCluster.create(dir);
  figures.clusterStartMs = Date.now() - started;
  stack = await ReplicaStack.start(cluster, dir);
  figures.stackStartMs = Date.now() - started;
}, 240_000);

afterAll(async () => {
  running?.abort();
  await stack?.stop().catch((error: unknown) => console.error('stopping the replicas:', error));
  await cluster?.destroy();
  const left = cluster?.leftovers() ?? [];
  if (dir) rmSync(dir, { recursive: true, force: true });
  // The suite's leak check covers processes; namespaces and links are this test's to check.
  if (left.length) throw new Error(`namespaces or links left behind: ${left.join(', ')}`);
}, 120_000);

it('loses and doubles nothing while the nemesis partitions, isolates, pauses and kills under load', async () => {
  const s = stack!;
  const c = cluster!;
  console.log(`partition: seed ${random.seed} (replay with FAULTS_SEED=${random.seed})`);
  // The streams the services made are R3 across the three namespaces.
  const jsm = await s.nc.jetstreamManager();
  for (const name of [STREAMS.agentEvents.name, STREAMS.openqEvents.name]) {
    const info = await jsm.streams.info(name);
    expect(info.config.num_replicas).toBe(3);
    expect(info.cluster?.replicas).toHaveLength(2);
  }
  await waitFor(() => clusterHealthy(c), { timeoutMs: 60_000, what: 'cluster healthy before the load' });

  const load = new Workload(s, new Engine(s), {
    rng: random,
    tag: 'n',
    projects: 6,
    declares: Math.round(250 * SCALE),
    cycles: Math.round(50 * SCALE),
    answerShare: 0.7,
    cycleAnswerShare: 0.85,
    clickShare: 0.4,
    rate: 10,
    answerConcurrency: 6,
  });
  running = load;
  const nemesis = new Nemesis(c, () => load.progress, MIN_HOLD_MS);
  const questions = s.of('questions');
  const gates = s.of('gates');
  const started = Date.now();
  const loadDone = load.run().then(() => Date.now());
  await waitFor(() => load.progress >= 0.05, { timeoutMs: 60_000, what: 'load under way' });
  await nemesis.partitionLeader(STREAMS.agentEvents.name);
  await nemesis.isolateReplica(questions[random.int(0, questions.length - 1)]!);
  await nemesis.pauseLeader(STREAMS.openqEvents.name);
  await nemesis.killMetaLeader();
  await nemesis.killReplica(gates[random.int(0, gates.length - 1)]!);
  const nemesisDone = Date.now();
  const loadEnded = await loadDone;
  const drainMs = await waitQuiet(s, DRAIN_LIMIT_MS);

  printTable('partition: faults (one at a time, each healed before the next)', nemesis.summary());
  // Every fault struck while the load was still being published and answered.
  expect(nemesis.records.map((r) => r.atProgress < 1)).toEqual(nemesis.records.map(() => true));
  expect(nemesis.records).toHaveLength(5);
  expect(loadEnded).toBeGreaterThanOrEqual(nemesisDone);

  for (const r of s.replicas) {
    expect({ replica: r.label, alive: r.proc.alive }).toEqual({ replica: r.label, alive: true });
    expect(await r.proc.status('/readyz')).toBe(200);
  }
  const invariants = await checkWorkload(s, load);
  const order = await checkSubjectOrder(s, load.projects);
  for (const o of order) {
    expect(o.outOfOrder).toEqual([]);
    expect(o.applied).toBeGreaterThan(0);
  }
  const consumers = await consumerStates(s.nc);
  expect(consumers.filter((x) => x.pending + x.ackPending > 0)).toEqual([]);

  Object.assign(figures, {
    seed: random.seed,
    agentEventsPublished: load.engine.published,
    publishRetries: load.engine.publishRetries,
    httpAnswers: load.clicks.length,
    clickRetries: load.clickRetries,
    'events + HTTP answers': load.engine.published + load.clicks.length,
    faults: nemesis.records.length,
    loadMs: loadEnded - started,
    'drain after load (ms)': drainMs,
    redeliveredTotal: consumers.reduce((a, x) => a + x.redelivered, 0),
    declaresInOrder: order[0]!.applied,
    agentAnswersInOrder: order[1]!.applied,
    ...invariants,
  });
  printFigures('partition: figures', figures);
}, 900_000);
