import { AgentEvent, OpenqEvent, makeEnvelope, type EventEnvelope } from '@openq/contracts';
import { waitFor } from '@openq/testing';
import {
  EXEC_AUTHOR,
  ask,
  askExisting,
  changes,
  drained,
  emitted,
  gatesOf,
  publishVerdict,
  redeliver,
  resume,
  startGate,
} from '../support/gates';
import { Stack } from '../support/stack';

const P = 'projg';
let stack: Stack;

beforeAll(async () => {
  stack = await Stack.start({ services: ['questions', 'gates'] });
});
afterAll(() => stack.stop());

type GateEventData = { taskId: string } & Record<string, unknown>;
interface QuestionItem {
  questionId: string;
  afeta: { tarefas: string[] };
}

const ofTask = (type: string, taskId: string) =>
  stack.events.ofType<GateEventData>(type).filter((e) => e.projectId === P && e.data.taskId === taskId);

async function waitEvent(type: string, taskId: string, count = 1): Promise<EventEnvelope<GateEventData>[]> {
  await waitFor(() => ofTask(type, taskId).length >= count, { what: `${count} × ${type} of ${taskId}` });
  return ofTask(type, taskId);
}

async function openQuestionsOf(taskId: string): Promise<QuestionItem[]> {
  const list = await stack.http('GET', `/projects/${P}/open-questions?status=all`, {
    token: stack.token(EXEC_AUTHOR, P, 'viewer'),
  });
  return (list.body.items as QuestionItem[]).filter((q) => q.afeta.tarefas.includes(taskId));
}

/** The one question of the task (waits for it to be listed). */
function theQuestionOf(taskId: string): Promise<QuestionItem> {
  return waitFor(
    async () => {
      const questions = await openQuestionsOf(taskId);
      return questions.length === 1 ? questions[0] : false;
    },
    { what: `the question of ${taskId}` },
  );
}

function answerByClick(questionId: string) {
  return stack.http('POST', `/projects/${P}/open-questions/${questionId}/answer`, {
    token: stack.token(EXEC_AUTHOR, P, 'viewer'),
    body: { aceitarSugestao: true },
  });
}

function answerByAgent(questionId: string, resposta: string) {
  return stack.http('POST', `/internal/projects/${P}/open-questions/${questionId}/answer`, {
    service: true,
    body: { resposta, viaAgente: 'po' },
  });
}

/** The gates service has heard the answer (its `answered_questions` row is there). */
async function gatesHeard(questionId: string): Promise<void> {
  await waitFor(
    async () =>
      (
        await stack
          .service('gates')
          .dataSource.query(`SELECT 1 FROM answered_questions WHERE question_id = $1`, [questionId])
      ).length === 1,
    { what: `gates heard ${questionId}` },
  );
}

describe('gates: parked on the user decision, resumed by the answer', () => {
  it('parks without a cycle, lists the QA question, and resumes exactly once on the click', async () => {
    await startGate(stack, P, 'T1');
    await publishVerdict(stack, P, 'T1', 'r0', [changes('api', 'GET /:codigo answers 500')]);
    await waitEvent(OpenqEvent.GateVerdictRecorded, 'T1');
    const asked = await publishVerdict(stack, P, 'T1', 'r1', [
      ask('rules', 'Are archived codes 404 or 410?', '410 Gone'),
      changes('api', 'GET /:codigo answers 500'),
    ]);

    const [parked] = await waitEvent(OpenqEvent.GateRescueParked, 'T1');
    const question = await theQuestionOf('T1');
    expect(question).toMatchObject({
      autor: 'qa-agent',
      origin: 'qa_verdict',
      sessionId: 'qa-T1',
      sessionAuthorId: EXEC_AUTHOR,
      pergunta: 'Are archived codes 404 or 410?',
      status: 'open',
      canAnswer: true,
      toolCallId: 'qa:T1:qa:r1:rules',
      afeta: { regras: [], historias: [], tarefas: ['T1'] },
    });
    expect(parked!.data).toEqual({
      taskId: 'T1',
      gate: 'qa',
      reason: 'user_decision',
      questionIds: [question.questionId],
      motivo: "waiting for the user's decision on 1 open question",
    });
    expect(ofTask(OpenqEvent.GateVerdictRecorded, 'T1').map((e) => e.data)).toEqual([
      {
        taskId: 'T1',
        gate: 'qa',
        veredito: 'changes_requested',
        correctionCount: 1,
        maxCorrections: 3,
        nextAction: 'correct',
      },
      {
        taskId: 'T1',
        gate: 'qa',
        veredito: 'needs_user_decision',
        correctionCount: 1,
        maxCorrections: 3,
        nextAction: 'parked',
      },
    ]);
    expect((await gatesOf(stack, P, 'T1')).body).toEqual([
      {
        gate: 'qa',
        state: 'parked',
        parkedReason: 'user_decision',
        questionIds: [question.questionId],
        correctionCount: 1,
        maxCorrections: 3,
        waitingForYou: true,
        updatedAt: expect.any(String),
      },
    ]);
    // §12.1 personal: it waits for the session's author, not for every viewer of the project.
    const waitingAs = (user: string) =>
      stack.http('GET', `/projects/${P}/waiting`, { token: stack.token(user, P, 'viewer') });
    expect((await waitingAs(EXEC_AUTHOR)).body.items).toContainEqual(
      expect.objectContaining({
        taskId: 'T1',
        gate: 'qa',
        waitingForYou: true,
        questionIds: [question.questionId],
      }),
    );
    expect((await waitingAs('viewer-1')).body.items).toContainEqual(
      expect.objectContaining({ taskId: 'T1', gate: 'qa', waitingForYou: false }),
    );
    expect((await gatesOf(stack, P, 'T1', 'viewer-1')).body[0]).toMatchObject({ waitingForYou: false });
    expect(await resume(stack, P, 'T1')).toMatchObject({
      status: 409,
      body: { reason: 'gate_aguarda_decisao', questionIds: [question.questionId] },
    });

    // The same verdict redelivered (same envelope) and re-sent (same round, new event): nothing twice.
    await redeliver(stack, asked);
    await publishVerdict(stack, P, 'T1', 'r1', [
      ask('rules', 'Are archived codes 404 or 410?', '410 Gone'),
      changes('api', 'GET /:codigo answers 500'),
    ]);
    await drained(stack, AgentEvent.QaVerdict);
    expect(await emitted(stack, OpenqEvent.GateVerdictRecorded, P, 'T1')).toHaveLength(2);
    expect(await emitted(stack, OpenqEvent.GateRescueParked, P, 'T1')).toHaveLength(1);
    expect(await openQuestionsOf('T1')).toHaveLength(1);

    const answered = await answerByClick(question.questionId);
    expect(answered.status).toBe(200);
    const [resumed] = await waitEvent(OpenqEvent.GateResumed, 'T1');
    expect(resumed!.data).toEqual({
      taskId: 'T1',
      gate: 'qa',
      trigger: 'answer',
      questionIds: [question.questionId],
      decisionEventIds: [answered.body.decisionEventId],
      pendingChanges: [
        { subspecialty: 'api', resumo: 'api: GET /:codigo answers 500', itens: ['GET /:codigo answers 500'] },
      ],
    });
    expect((await gatesOf(stack, P, 'T1')).body[0]).toMatchObject({
      state: 'running',
      parkedReason: null,
      questionIds: [],
      correctionCount: 1,
      waitingForYou: false,
    });

    // The answer redelivered (same envelope) and re-sent (same data, new event): one resume only.
    const [answerEvent] = stack.events
      .ofType(OpenqEvent.QuestionAnswered)
      .filter((e) => (e.data as { questionId: string }).questionId === question.questionId);
    await redeliver(stack, answerEvent!);
    await redeliver(stack, makeEnvelope(answerEvent!.type, P, answerEvent!.data));
    await drained(stack, OpenqEvent.QuestionAnswered);
    expect(await emitted(stack, OpenqEvent.GateResumed, P, 'T1')).toHaveLength(1);
    expect(await resume(stack, P, 'T1')).toMatchObject({
      status: 409,
      body: { reason: 'gate_nao_estacionado' },
    });
  });

  it('resumes on an answer recorded by an agent, only once both questions are answered', async () => {
    await startGate(stack, P, 'T2');
    await publishVerdict(stack, P, 'T2', 'r1', [
      ask('rules', 'Lowercase codes allowed?', 'Yes'),
      ask('ux', 'Show the archive date?'),
      { subspecialty: 'perf', veredito: 'approved', resumo: 'ok', itens: [] },
    ]);
    const [parked] = await waitEvent(OpenqEvent.GateRescueParked, 'T2');
    const questions = await openQuestionsOf('T2');
    expect(questions).toHaveLength(2);
    expect(parked!.data).toMatchObject({
      reason: 'user_decision',
      questionIds: questions.map((q) => q.questionId),
    });
    const [q1, q2] = questions.map((q) => q.questionId as string);

    const first = await answerByAgent(q2!, 'No, keep it hidden');
    expect(first).toMatchObject({ status: 200, body: { status: 'answered' } });
    await gatesHeard(q2!);
    await drained(stack, OpenqEvent.QuestionAnswered);
    expect(await emitted(stack, OpenqEvent.GateResumed, P, 'T2')).toHaveLength(0);
    expect((await gatesOf(stack, P, 'T2')).body[0]).toMatchObject({
      state: 'parked',
      questionIds: [q1],
      waitingForYou: true,
    });

    const second = await answerByAgent(q1!, 'Yes');
    const [resumed] = await waitEvent(OpenqEvent.GateResumed, 'T2');
    expect(resumed!.data).toEqual({
      taskId: 'T2',
      gate: 'qa',
      trigger: 'answer',
      questionIds: [q1, q2],
      decisionEventIds: [second.body.decisionEventId, first.body.decisionEventId],
    });
    // The agent records the same answer again (ADR 0258: idempotent): nothing more happens.
    expect(await answerByAgent(q1!, 'Yes')).toMatchObject({
      status: 200,
      body: { status: 'already_answered' },
    });
    await drained(stack, OpenqEvent.QuestionAnswered);
    expect(await emitted(stack, OpenqEvent.GateResumed, P, 'T2')).toHaveLength(1);
  });

  it('never parks when the linked question was answered before the verdict arrived', async () => {
    await stack.publishAgentEvent(AgentEvent.QuestionDeclare, P, {
      sessionId: 's-po',
      sessionAuthorId: EXEC_AUTHOR,
      autor: 'po',
      pergunta: 'Is the code case-sensitive?',
      sugestao: 'No',
      afeta: { regras: [], historias: [], tarefas: ['T3'] },
      toolCallId: 'tc-T3',
    });
    const question = await theQuestionOf('T3');
    const answered = await answerByClick(question.questionId);
    await gatesHeard(question.questionId);

    await startGate(stack, P, 'T3');
    await publishVerdict(stack, P, 'T3', 'r1', [askExisting('rules', question.questionId)]);
    const [resumed] = await waitEvent(OpenqEvent.GateResumed, 'T3');
    expect(resumed!.data).toEqual({
      taskId: 'T3',
      gate: 'qa',
      trigger: 'answer',
      questionIds: [question.questionId],
      decisionEventIds: [answered.body.decisionEventId],
    });
    await drained(stack, AgentEvent.QaVerdict);
    expect(await emitted(stack, OpenqEvent.GateRescueParked, P, 'T3')).toHaveLength(0);
    expect((await gatesOf(stack, P, 'T3')).body[0]).toMatchObject({
      state: 'running',
      parkedReason: null,
      correctionCount: 0,
    });
    expect(await openQuestionsOf('T3')).toHaveLength(1);
  });

  it('refuses a verdict citing a question that does not exist: nothing parked, counter untouched, the engine told (§11.1)', async () => {
    await startGate(stack, P, 'T-ghost');
    await publishVerdict(stack, P, 'T-ghost', 'r1', [changes('api', 'fix route')]);
    await waitEvent(OpenqEvent.GateVerdictRecorded, 'T-ghost');
    const ghost = '01890a5d-ac96-774b-bcce-b302099a80ff';
    await publishVerdict(stack, P, 'T-ghost', 'r2', [askExisting('rules', ghost), changes('ux', 'x')]);
    const [rejected] = await waitEvent(OpenqEvent.GateVerdictRejected, 'T-ghost');
    expect(rejected!.data).toEqual({
      taskId: 'T-ghost',
      gate: 'qa',
      roundId: 'r2',
      reason: 'pergunta_nao_encontrada',
      questionId: ghost,
    });
    await drained(stack, AgentEvent.QaVerdict);
    expect(await emitted(stack, OpenqEvent.GateRescueParked, P, 'T-ghost')).toHaveLength(0);
    expect(await emitted(stack, OpenqEvent.GateVerdictRecorded, P, 'T-ghost')).toHaveLength(1);
    // the counter stays where round r1 left it; nothing waits for the user
    expect((await gatesOf(stack, P, 'T-ghost')).body[0]).toMatchObject({
      state: 'changes_requested',
      parkedReason: null,
      questionIds: [],
      correctionCount: 1,
      waitingForYou: false,
    });
    expect(await resume(stack, P, 'T-ghost')).toMatchObject({
      status: 409,
      body: { reason: 'gate_nao_estacionado' },
    });
  });

  it('answers 404 tarefa_nao_encontrada for a task without gate cycles', async () => {
    expect(await gatesOf(stack, P, 'T-none')).toMatchObject({
      status: 404,
      body: { reason: 'tarefa_nao_encontrada' },
    });
    expect(await resume(stack, P, 'T-none')).toMatchObject({
      status: 404,
      body: { reason: 'gate_nao_encontrado' },
    });
  });
});
