import { AgentEvent, OpenqEvent, STREAMS } from '@openq/contracts';
import { waitFor } from '@openq/testing';
import { ALL_SERVICES, ProcessStack } from '../support/processes';
import { killDuringLoad, summariseKills } from './support/chaos';
import { Engine } from './support/engine';
import { checkWorkload, waitQuiet } from './support/invariants';
import { readStream } from './support/quiet';
import { printFigures, printTable, saveFigures } from './support/report';
import { rng } from './support/rng';
import { Workload } from './support/workload';
import { FULL_SCALE, scaled } from './support/scale';

/*
 * Issue #9, item 1 — crashes under load. While ≥ 10,000 agent events and HTTP answers flow, every
 * service (questions, gates, context, gateway: each its own process) is SIGKILLed at random
 * moments and restarted; afterwards the log, the stream and the read models must show that
 * nothing was lost or applied twice. Replay a run with FAULTS_SEED=<seed printed below>.
 */

const random = rng();
// Six kills of each service at full scale; three at CI scale, where a restart costs more than the load.
const KILLS_PER_SERVICE = FULL_SCALE ? 6 : 3;
let stack: ProcessStack;
let running: Workload | null = null;

beforeAll(async () => {
  stack = await ProcessStack.start({ dbPrefix: 'openq_crash' });
}, 180_000);
afterAll(async () => {
  running?.abort();
  await stack?.stop();
}, 60_000);

it(`loses and doubles nothing while each service is SIGKILLed ${KILLS_PER_SERVICE} times under load`, async () => {
  console.log(`crashes: seed ${random.seed} (replay with FAULTS_SEED=${random.seed})`);
  const load = new Workload(stack, new Engine(stack), {
    rng: random,
    tag: 'k',
    projects: 12,
    declares: scaled(4600),
    cycles: scaled(900),
    answerShare: 0.7,
    cycleAnswerShare: 0.85,
    clickShare: 0.4,
    rate: 220,
  });
  running = load;
  if (FULL_SCALE) expect(load.plannedEvents + load.plannedClicks).toBeGreaterThanOrEqual(10_000);
  const started = Date.now();
  const [kills] = await Promise.all([
    killDuringLoad(stack, () => load.progress, random, ALL_SERVICES, KILLS_PER_SERVICE),
    load.run(),
  ]);
  const loadMs = Date.now() - started;
  const drainMs = await waitQuiet(stack, 180_000);

  for (const proc of stack.all()) {
    expect(proc.alive).toBe(true);
    expect(await proc.status('/healthz')).toBe(200);
  }
  const invariants = await checkWorkload(stack, load);

  expect(kills.length).toBe(ALL_SERVICES.length * KILLS_PER_SERVICE);
  printTable('crashes: kills (SIGKILL, then restart on the same port)', summariseKills(kills));
  const figures = {
    seed: random.seed,
    agentEventsPublished: load.engine.published,
    httpAnswers: load.clicks.length,
    'events + HTTP answers': load.engine.published + load.clicks.length,
    kills: kills.length,
    loadMs,
    'drain after load (ms)': drainMs,
    clickRetries: load.clickRetries,
    publishRetries: load.engine.publishRetries,
    ...invariants,
  };
  printFigures('crashes: figures', figures);
  saveFigures('crashes', { figures, kills: summariseKills(kills) });
}, 900_000);

it('publishes, through the relay, what a process committed and died before publishing', async () => {
  const questions = stack.proc('questions');
  await questions.kill('SIGTERM');
  // This questions process SIGKILLs itself right after its first COMMIT that wrote outbox rows.
  await questions.start({ OPENQ_FAULT_DIE_AFTER_COMMIT: '1' });
  const engine = new Engine(stack);
  const project = 'diecommit';
  const toolCallId = 'die-after-commit-1';
  await engine.emit(AgentEvent.QuestionDeclare, project, {
    sessionId: 's1',
    sessionAuthorId: 'ana',
    autor: 'po',
    pergunta: 'Committed, then the process died: is it still published?',
    sugestao: 'yes',
    afeta: { regras: [], historias: [], tarefas: [] },
    toolCallId,
  });
  await questions.waitExit();
  expect(questions.lastExit?.signal).toBe('SIGKILL');
  // The declaration was committed with its outbox row, and nothing was published.
  const committed = await stack.sql<{ event_id: string }>(
    `SELECT event_id FROM questions.outbox WHERE subject = $1 AND published_at IS NULL`,
    [`${OpenqEvent.QuestionDeclared}.${project}`],
  );
  expect(committed).toHaveLength(1);
  const declared = () =>
    readStream(stack.nc, STREAMS.openqEvents.name, `${OpenqEvent.QuestionDeclared}.${project}`);
  expect(await declared()).toEqual([]);

  await questions.start(); // without the fault: its relay finds the row past its grace period
  await waitFor(async () => (await declared()).length === 1, {
    what: 'question.declared published by the relay',
    timeoutMs: 30_000,
  });
  expect((await declared()).map((m) => m.msgId)).toEqual([committed[0]!.event_id]);
  expect(
    await stack.count(
      `SELECT count(*) AS n FROM questions.outbox WHERE published_at IS NULL AND subject = $1`,
      [`${OpenqEvent.QuestionDeclared}.${project}`],
    ),
  ).toBe(0);
}, 180_000);
