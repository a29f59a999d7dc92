import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
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
 * majority, cuts a questions replica off the broker, pauses a server past its heartbeats (a
 * follower; PARTITION_PAUSE=leader: the OPENQ_EVENTS leader), kills the meta leader and a gates
 * replica and starts them again — one at a time,
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
  if (dir) {
    // The servers' and replicas' logs of the latest run, for a failure's reader (ignored by git).
    const keep = join(__dirname, '..', 'artifacts', 'partition');
    rmSync(keep, { recursive: true, force: true });
    mkdirSync(keep, { recursive: true });
    cpSync(dir, keep, { recursive: true, filter: (src) => !src.includes('/nats-') || src.endsWith('.log') });
    rmSync(dir, { recursive: true, force: true });
  }
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

  // The load comes in waves, one after the other, until the nemesis is done: every fault strikes
  // while agents declare, people answer and gates cycle, however long the cluster takes to recover.
  const engine = new Engine(s);
  const waves: Workload[] = [];
  let nemesisDone = 0;
  const wave = () =>
    new Workload(s, engine, {
      rng: random,
      tag: `w${waves.length}`,
      projects: 3,
      declares: Math.round(60 * SCALE),
      cycles: Math.round(12 * SCALE),
      answerShare: 0.7,
      cycleAnswerShare: 0.85,
      clickShare: 0.4,
      rate: 6,
      answerConcurrency: 6,
    });
  const started = Date.now();
  const loading = (async () => {
    while (!nemesisDone) {
      running = wave();
      waves.push(running);
      await running.run();
    }
    return Date.now();
  })();
  const progress = () => waves.length - 1 + (running?.progress ?? 0);
  const nemesis = new Nemesis(c, progress, MIN_HOLD_MS);
  const questions = s.of('questions');
  const gates = s.of('gates');
  await waitFor(() => progress() >= 0.2, { timeoutMs: 60_000, what: 'load under way' });
  await nemesis.partitionLeader(STREAMS.agentEvents.name);
  await nemesis.killReplica(gates[random.int(0, gates.length - 1)]!);
  await nemesis.isolateReplica(questions[random.int(0, questions.length - 1)]!);
  // PARTITION_PAUSE=leader pauses the OPENQ_EVENTS leader instead (see docs/reliability.md).
  if (process.env.PARTITION_PAUSE === 'leader') await nemesis.pauseLeader(STREAMS.openqEvents.name);
  else await nemesis.pauseFollower([STREAMS.agentEvents.name, STREAMS.openqEvents.name], 8000);
  await nemesis.killMetaLeader();
  nemesisDone = Date.now();
  const loadEnded = await loading;
  // Waited for longer than the limit; a drain that does not end is reported after the invariants,
  // which say better what went wrong (an event lost upstream leaves a consumer deferring forever).
  let drainError: unknown = null;
  const drainMs = await waitQuiet(s, 2 * DRAIN_LIMIT_MS).catch((error: unknown) => {
    drainError = error;
    return Infinity;
  });

  printTable(
    'partition: faults (one at a time, each healed before the next; "at" = wave + progress)',
    nemesis.summary(),
  );
  if (drainError) console.log(`partition: no drain — ${String(drainError)}`);
  expect(nemesis.records).toHaveLength(5);
  for (const r of s.replicas) {
    expect({ replica: r.label, alive: r.proc.alive }).toEqual({ replica: r.label, alive: true });
    expect(await r.proc.status('/readyz')).toBe(200);
  }
  const invariants: Record<string, number | boolean>[] = [];
  for (const w of waves) invariants.push(await checkWorkload(s, w));
  if (drainError) throw drainError;
  const projects = waves.flatMap((w) => w.projects);
  const order = await checkSubjectOrder(s, projects);
  for (const o of order) {
    expect(o.outOfOrder).toEqual([]);
    expect(o.applied).toBeGreaterThan(0);
  }
  const consumers = await consumerStates(s.nc);
  expect(consumers.filter((x) => x.pending + x.ackPending > 0)).toEqual([]);
  const sum = (key: string) => invariants.reduce((a, x) => a + Number(x[key] ?? 0), 0);
  const clicks = waves.flatMap((w) => w.clicks);

  // nats-server resetting a stream's clustered state after "last sequence mismatch" (a broker
  // defect seen under leader changes: docs/reliability.md); counted, and the invariants above say
  // whether anything was lost with it.
  const resets = c.nodes
    .map(
      (n) =>
        readFileSync(join(dir, `${n.name}.log`), 'utf8').match(/Resetting stream cluster state/g)?.length ??
        0,
    )
    .reduce((a, b) => a + b, 0);
  Object.assign(figures, {
    seed: random.seed,
    brokerStreamResets: resets,
    waves: waves.length,
    agentEventsPublished: engine.published,
    publishRetries: engine.publishRetries,
    httpAnswers: clicks.length,
    clickRetries: waves.reduce((a, w) => a + w.clickRetries, 0),
    'events + HTTP answers': engine.published + clicks.length,
    faults: nemesis.records.length,
    loadMs: loadEnded - started,
    'drain after load (ms)': drainMs,
    declaresInOrder: order[0]!.applied,
    agentAnswersInOrder: order[1]!.applied,
    declaredQuestions: sum('declaredQuestions'),
    answeredQuestions: sum('answeredQuestions'),
    decisionsRecorded: sum('decisionsRecorded'),
    cyclesResumed: sum('cyclesResumed'),
    cyclesLeftParked: sum('cyclesLeftParked'),
    clicks200: sum('clicks200'),
    clicks409AfterRetry: sum('clicks409AfterRetry'),
    projectionEqualsReplay: invariants.every((x) => x.projectionEqualsReplay === true),
    contextEqualsReplay: invariants.every((x) => x.contextEqualsReplay === true),
    deadLetters: sum('deadLetters'),
  });
  printFigures('partition: figures', figures);
  expect(drainMs).toBeLessThanOrEqual(DRAIN_LIMIT_MS);
}, 900_000);
