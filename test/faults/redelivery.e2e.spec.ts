import { AgentEvent, eventSubject, newId, STREAMS, TOOL_CALL_EVENT_TYPES } from '@openq/contracts';
import { durableName, durableOf, encodeJson } from '@openq/messaging';
import { waitFor } from '@openq/testing';
import { ProcessStack } from '../support/processes';
import { devToken, Engine, http, SERVICE_TOKEN } from './support/engine';
import { checkWorkload, consumerStates, deadLetters, readStream, waitQuiet } from './support/invariants';
import { printFigures, saveFigures } from './support/report';
import { rng } from './support/rng';
import { NakStorm } from './support/storm';
import { AUTHOR, Workload } from './support/workload';
import { scaled } from './support/scale';

/*
 * Issue #9, item 3 — redelivery storms and out-of-order delivery. A rogue consumer on the
 * services' own durables naks everything it steals while every agent event is also re-sent under
 * a new message id; answers arrive for questions nobody declared; the gates hear an answer before
 * the verdict that links its question, or at the same moment; poison reaches every consumer.
 * The invariants hold, refusals and poison are set aside with their reason, nothing stays pending.
 */

const random = rng();
let stack: ProcessStack;
let engine: Engine;
const figures: Record<string, number | string | boolean> = { seed: random.seed };

beforeAll(async () => {
  stack = await ProcessStack.start({ dbPrefix: 'openq_redeliver' });
  engine = new Engine(stack);
}, 180_000);
afterAll(() => stack?.stop(), 60_000);

it('applies everything once through a nak storm on the durables and copies of every event under new ids', async () => {
  console.log(`redelivery: seed ${random.seed} (replay with FAULTS_SEED=${random.seed})`);
  const work = new Workload(stack, engine, {
    rng: random,
    tag: 'r',
    projects: 4,
    declares: scaled(400),
    cycles: scaled(100),
    answerShare: 0.7,
    cycleAnswerShare: 0.8,
    clickShare: 0.3,
    rate: 250,
    copies: 2,
  });
  const storm = new NakStorm(stack.nc, [
    [STREAMS.agentEvents.name, durableName('questions', AgentEvent.QuestionDeclare)],
    [STREAMS.agentEvents.name, durableName('questions', AgentEvent.QuestionAnswer)],
    [STREAMS.agentEvents.name, durableName('gates', AgentEvent.QaVerdict)],
    [STREAMS.agentEvents.name, durableName('gates', AgentEvent.GateStarted)],
    [STREAMS.openqEvents.name, durableName('gates', 'question.answered')],
    // The context service's types ride one durable of the whole stream (decision.recorded among them).
    [STREAMS.openqEvents.name, durableOf('context', 'question.declared')],
  ]).start();
  await work.run();
  await storm.stop();
  const drainMs = await waitQuiet(stack, 180_000);
  const invariants = await checkWorkload(stack, work);
  Object.assign(figures, {
    'storm: events published (copies included)': work.engine.published,
    'storm: copies under new ids': work.copiesSent,
    'storm: naks by the rogue consumer': storm.naks,
    'storm: highest delivery count seen': storm.maxDeliveryCount,
    'storm: drain after load (ms)': drainMs,
    'storm: declared': invariants.declaredQuestions!,
    'storm: answered': invariants.answeredQuestions!,
    'storm: cycles resumed': invariants.cyclesResumed!,
  });
  expect(storm.naks).toBeGreaterThan(0);
}, 600_000);

it('rejects an answer to a question it does not know yet with question.rejected, and writes nothing', async () => {
  const project = 'early';
  const unknown = Array.from({ length: 50 }, () => newId());
  await Promise.all(
    unknown.map((questionId, i) =>
      engine.emit(AgentEvent.QuestionAnswer, project, {
        toolCallId: `early-${i}`,
        questionId,
        viaAgente: 'po',
        resposta: 'yes',
      }),
    ),
  );
  const rejected = await waitFor(
    async () => {
      const r = await readStream<{ toolCallId: string; reason: string }>(
        stack.nc,
        STREAMS.openqEvents.name,
        `question.rejected.${project}`,
      );
      return r.length >= unknown.length ? r : false;
    },
    { timeoutMs: 60_000, what: 'question.rejected for every early answer' },
  );
  expect(new Set(rejected.map((r) => r.envelope!.data.toolCallId)).size).toBe(unknown.length);
  expect(rejected.every((r) => r.envelope!.data.reason === 'pergunta_nao_encontrada')).toBe(true);
  expect(
    await stack.count(
      `SELECT count(*) AS n FROM questions.question_log WHERE question_id = ANY($1::uuid[])`,
      [unknown],
    ),
  ).toBe(0);
  figures['early answers rejected'] = rejected.length;
}, 120_000);

async function declareAndClick(project: string, i: number): Promise<string> {
  const declared = await http(stack.gatewayUrl, 'POST', `/internal/projects/${project}/open-questions`, {
    serviceToken: SERVICE_TOKEN,
    body: {
      sessionId: 's1',
      sessionAuthorId: AUTHOR,
      autor: 'po',
      pergunta: `Linked question ${i}?`,
      sugestao: 'yes',
      afeta: { regras: [], historias: [], tarefas: [] },
      toolCallId: `linked-${i}`,
    },
  });
  expect(declared.status).toBe(201);
  return declared.body.questionId as string;
}

const click = (project: string, questionId: string) =>
  http(stack.gatewayUrl, 'POST', `/projects/${project}/open-questions/${questionId}/answer`, {
    token: devToken(AUTHOR, project),
    body: { resposta: 'yes' },
  });

function startAndVerdict(project: string, taskId: string, questionId: string): Promise<unknown> {
  return (async () => {
    await engine.emit(AgentEvent.GateStarted, project, {
      taskId,
      gate: 'qa',
      sessionId: `exec-${taskId}`,
      sessionAuthorId: AUTHOR,
    });
    await engine.emit(AgentEvent.QaVerdict, project, {
      roundId: `round-${taskId}`,
      taskId,
      gate: 'qa',
      sessionId: `qa-${taskId}`,
      sessionAuthorId: AUTHOR,
      verdicts: [
        {
          subspecialty: 'contract',
          veredito: 'needs_user_decision',
          resumo: 'asks the user',
          itens: [],
          openQuestionId: questionId,
        },
      ],
    });
  })();
}

it('resumes each cycle once whether the answer reaches the gates before the verdict that links it or with it', async () => {
  const project = 'order';
  const CYCLES = 60;
  // Answer first: the gates have heard the answer before the verdict arrives; the cycle must not park.
  for (let i = 0; i < CYCLES; i++) {
    const q = await declareAndClick(project, i);
    expect((await click(project, q)).status).toBe(200);
    await waitFor(
      async () =>
        (await stack.count(`SELECT count(*) AS n FROM gates.answered_questions WHERE question_id = $1`, [
          q,
        ])) === 1,
      { timeoutMs: 30_000, what: 'gates heard the answer' },
    );
    await startAndVerdict(project, `first-${i}`, q);
  }
  // At once: the click and the verdict leave together.
  await Promise.all(
    Array.from({ length: CYCLES }, async (_, i) => {
      const q = await declareAndClick(project, CYCLES + i);
      await Promise.all([click(project, q), startAndVerdict(project, `race-${i}`, q)]);
    }),
  );
  await waitQuiet(stack, 120_000);
  const events = await readStream<{ taskId: string }>(stack.nc, STREAMS.openqEvents.name, `gate.>`);
  const count = (type: string, prefix: string) =>
    events.filter(
      (e) =>
        e.envelope?.projectId === project &&
        e.envelope.type === type &&
        e.envelope.data.taskId.startsWith(prefix),
    ).length;
  const states = await stack.sql<{ task_id: string; state: string }>(
    `SELECT task_id, state FROM gates.gate_cycle WHERE project_id = $1`,
    [project],
  );
  expect(states.filter((s) => s.state !== 'running')).toEqual([]);
  expect(count('gate.resumed', 'first-')).toBe(CYCLES);
  expect(count('gate.rescue_parked', 'first-')).toBe(0);
  expect(count('gate.resumed', 'race-')).toBe(CYCLES);
  const perTask = new Map<string, number>();
  for (const e of events.filter(
    (x) => x.envelope?.type === 'gate.resumed' && x.envelope.projectId === project,
  ))
    perTask.set(e.envelope!.data.taskId, (perTask.get(e.envelope!.data.taskId) ?? 0) + 1);
  expect([...perTask.values()].every((n) => n === 1)).toBe(true);
  figures['answer-first cycles (resumed once, never parked)'] = count('gate.resumed', 'first-');
  figures['answer-with-verdict cycles (resumed once)'] = count('gate.resumed', 'race-');
  figures['answer-with-verdict cycles that parked first'] = count('gate.rescue_parked', 'race-');
}, 300_000);

it('sets poison aside on every consumer with its reason and leaves nothing pending', async () => {
  const project = 'poison';
  const types = Object.values(AgentEvent);
  const before = await deadLetters(stack);
  for (const type of types) {
    const subject = eventSubject(type, project);
    const good = engine.envelope(type, project, { toolCallId: `poison-${type}`, junk: true });
    await engine.publishRaw(subject, new TextEncoder().encode('{not json'), newId());
    await engine.publishRaw(subject, encodeJson({ eventId: 'nope', type }), newId());
    await engine.publishRaw(subject, encodeJson({ ...good, projectId: 'another' }), newId());
    await engine.publishRaw(subject, encodeJson(good), good.eventId);
  }
  await waitQuiet(stack, 120_000);
  const after = (await deadLetters(stack)).filter(
    (d) => !before.some((b) => b.consumer === d.consumer && b.reason === d.reason && b.n === d.n),
  );
  const reasons = new Set(after.map((d) => d.reason));
  expect([...reasons].sort()).toEqual(['envelope_invalido', 'json_invalido', 'payload_invalido']);
  const rejected = await readStream<{ toolCallId: string; reason: string }>(
    stack.nc,
    STREAMS.openqEvents.name,
    `question.rejected.${project}`,
  );
  // One `question.rejected` per tool-call event type (its valid envelope with a bad payload).
  expect(rejected.map((r) => [r.envelope!.data.toolCallId, r.envelope!.data.reason]).sort()).toEqual(
    TOOL_CALL_EVENT_TYPES.map((type) => [`poison-${type}`, 'payload_invalido']).sort(),
  );
  const rows = await stack.sql<{ reason: string; n: string }>(
    `SELECT reason, count(*) AS n FROM (SELECT reason FROM questions.dead_letter UNION ALL SELECT reason FROM gates.dead_letter UNION ALL SELECT reason FROM context.dead_letter) d GROUP BY reason`,
  );
  for (const state of await consumerStates(stack.nc))
    expect({ name: state.name, pending: state.pending, ackPending: state.ackPending }).toEqual({
      name: state.name,
      pending: 0,
      ackPending: 0,
    });
  figures['poison: dead letters by reason'] = rows.map((r) => `${r.reason} ${r.n}`).join(', ');
  printFigures('redelivery: figures', figures);
  saveFigures('redelivery', figures);
}, 180_000);
