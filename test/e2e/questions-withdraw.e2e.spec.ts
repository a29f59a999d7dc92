import { AgentEvent, OpenqEvent, type EventEnvelope } from '@openq/contracts';
import { waitFor } from '@openq/testing';
import { EXEC_AUTHOR, ask, drained, emitted, gatesOf, publishVerdict, startGate } from '../support/gates';
import { Stack } from '../support/stack';

/**
 * SPEC §11.5, withdrawing a question, through the real stack (gateway, questions, gates, context;
 * NATS JetStream and PostgreSQL): a QA verdict parks the gate on two questions, one is answered
 * and the other withdrawn by the session author, and the gate resumes with trigger `withdrawn`;
 * the doors' refusals (403, 404, 409, 400); an asker's `withdraw_open_question` tool call, which
 * (§12.1) only the agent that asked may make: another asker, another session, or QA's question is
 * rejected `so_quem_perguntou`.
 */
const P = 'projwd';
let stack: Stack;

beforeAll(async () => {
  stack = await Stack.start({ services: ['questions', 'gates', 'context'] });
});
afterAll(() => stack.stop());

type Data = Record<string, unknown>;

const ofTask = (type: string, taskId: string): EventEnvelope<Data>[] =>
  stack.events.ofType<Data>(type).filter((e) => e.projectId === P && e.data['taskId'] === taskId);

const as = (user: string) => stack.token(user, P, 'viewer');

const withdraw = (questionId: string, body: unknown, user = EXEC_AUTHOR) =>
  stack.http('POST', `/projects/${P}/open-questions/${questionId}/withdraw`, { token: as(user), body });

const answer = (questionId: string, body: unknown) =>
  stack.http('POST', `/projects/${P}/open-questions/${questionId}/answer`, { token: as(EXEC_AUTHOR), body });

const listed = async (status: string): Promise<Data[]> =>
  (await stack.http('GET', `/projects/${P}/open-questions?status=${status}`, { token: as(EXEC_AUTHOR) })).body
    .items as Data[];

it('a gate parked on two questions: one answered, the other withdrawn → resumed with trigger withdrawn', async () => {
  const T = 'T-WD1';
  await startGate(stack, P, T);
  await publishVerdict(stack, P, T, 'round-1', [
    ask('functional', 'Archived code: 404 or 410?', '410 Gone'),
    ask('contract', 'Keep the v1 route for a month?'),
  ]);
  await waitFor(() => ofTask(OpenqEvent.GateRescueParked, T).length === 1, { what: `${T} parked` });
  const [q1, q2] = ofTask(OpenqEvent.GateRescueParked, T)[0]!.data['questionIds'] as string[];

  // The doors' refusals, before anything changes.
  expect(await withdraw(q2!, { motivo: 'not mine to drop' }, 'bia')).toMatchObject({
    status: 403,
    body: { reason: 'so_o_autor_da_sessao' },
  });
  for (const motivo of ['   ', 'x'.repeat(501), undefined]) {
    expect(await withdraw(q2!, { motivo })).toMatchObject({
      status: 400,
      body: { reason: 'motivo_invalido' },
    });
  }
  expect(await withdraw('0190a3b8-7c1d-7e2f-8a3b-1c2d3e4f5a6b', { motivo: 'gone?' })).toMatchObject({
    status: 404,
    body: { reason: 'pergunta_nao_encontrada' },
  });

  expect(await answer(q1!, { aceitarSugestao: true })).toMatchObject({ status: 200 });
  await stack.events.waitForType(OpenqEvent.QuestionAnswered, 1);
  await drained(stack, OpenqEvent.QuestionAnswered);
  expect((await gatesOf(stack, P, T)).body[0]).toMatchObject({ state: 'parked', questionIds: [q2] });

  // §12.1 QA's question is not an asker's to drop: the tool call is rejected and the gate stays parked.
  await stack.publishAgentEvent(AgentEvent.QuestionWithdraw, P, {
    toolCallId: 'toolu_wd_qa',
    questionId: q2,
    motivo: 'I think it is moot',
    viaAgente: 'po',
    sessionId: 'sess-po',
  });
  await waitFor(
    () =>
      stack.events
        .ofType<Data>(OpenqEvent.QuestionRejected)
        .some((e) => e.data['toolCallId'] === 'toolu_wd_qa'),
    { what: 'question.rejected for an asker dropping QA’s question' },
  );
  expect(
    stack.events
      .ofType<Data>(OpenqEvent.QuestionRejected)
      .find((e) => e.data['toolCallId'] === 'toolu_wd_qa'),
  ).toMatchObject({ data: { reason: 'so_quem_perguntou' } });
  expect((await gatesOf(stack, P, T)).body[0]).toMatchObject({ state: 'parked', questionIds: [q2] });

  const withdrawn = await withdraw(q2!, { motivo: '  The v1 route is already gone  ' });
  expect(withdrawn).toEqual({
    status: 200,
    body: {
      withdrawn: true,
      questionId: q2,
      status: 'withdrawn',
      by: { kind: 'user', id: EXEC_AUTHOR },
      motivo: 'The v1 route is already gone',
      withdrawnAt: expect.any(String) as unknown as string,
      alreadyWithdrawn: false,
    },
  });
  await waitFor(() => ofTask(OpenqEvent.GateResumed, T).length === 1, { what: `${T} resumed` });
  const [answeredEvent] = stack.events
    .ofType<Data>(OpenqEvent.QuestionAnswered)
    .filter((e) => e.data['questionId'] === q1);
  expect(ofTask(OpenqEvent.GateResumed, T)[0]).toMatchObject({
    data: {
      taskId: T,
      gate: 'qa',
      trigger: 'withdrawn',
      questionIds: [q1, q2],
      decisionEventIds: [answeredEvent!.data['decisionEventId']],
      withdrawnQuestionIds: [q2],
    },
  });
  expect((await gatesOf(stack, P, T)).body[0]).toMatchObject({ state: 'running', waitingForYou: false });
  const [published] = stack.events
    .ofType<Data>(OpenqEvent.QuestionWithdrawn)
    .filter((e) => e.data['questionId'] === q2);
  expect(published).toMatchObject({
    projectId: P,
    data: { questionId: q2, by: { kind: 'user', id: EXEC_AUTHOR }, motivo: 'The v1 route is already gone' },
  });

  // Again: 200 with the withdrawal that stands; an answered question is 409; a withdrawn one is never answered.
  expect(await withdraw(q2!, { motivo: 'again' })).toMatchObject({
    status: 200,
    body: { alreadyWithdrawn: true, motivo: 'The v1 route is already gone' },
  });
  expect(await withdraw(q1!, { motivo: 'too late' })).toMatchObject({
    status: 409,
    body: { reason: 'pergunta_ja_respondida' },
  });
  expect(await answer(q2!, { resposta: 'yes' })).toMatchObject({
    status: 409,
    body: { reason: 'pergunta_retirada' },
  });
  // §12.1 / ADR 0258 item 4: the agent's internal answer never 409s; closedAs tells withdrawn from answered.
  const agentAnswer = (questionId: string) =>
    stack.http('POST', `/internal/projects/${P}/open-questions/${questionId}/answer`, {
      service: true,
      body: { viaAgente: 'po', resposta: 'yes' },
    });
  expect(await agentAnswer(q2!)).toEqual({
    status: 200,
    body: { status: 'already_answered', questionId: q2, decisionEventId: null, closedAs: 'withdrawn' },
  });
  expect(await agentAnswer(q1!)).toEqual({
    status: 200,
    body: {
      status: 'already_answered',
      questionId: q1,
      decisionEventId: expect.any(String) as unknown as string,
      closedAs: 'answered',
    },
  });

  // The lists: withdrawn apart from open and answered; the count leaves it out.
  expect((await listed('open')).map((q) => q['questionId'])).not.toContain(q2);
  expect(await listed('withdrawn')).toEqual([
    expect.objectContaining({
      questionId: q2,
      status: 'withdrawn',
      canAnswer: false,
      withdrawal: expect.objectContaining({ motivo: 'The v1 route is already gone' }) as unknown,
    }),
  ]);
  expect((await listed('all')).map((q) => q['status'])).toEqual(['answered', 'withdrawn']);
  const count = await stack.http('GET', `/projects/${P}/open-questions/count`, { token: as(EXEC_AUTHOR) });
  expect(count.body).toEqual({ open: 0 });
  await drained(stack, OpenqEvent.QuestionWithdrawn);
  expect(await emitted(stack, OpenqEvent.GateResumed, P, T)).toHaveLength(1);
});

it('an asker withdraws by tool call: question.withdrawn by the agent, gone from the turn context; refused on an answered question', async () => {
  const declare = (toolCallId: string, pergunta: string) =>
    stack.http('POST', `/internal/projects/${P}/open-questions`, {
      service: true,
      body: {
        toolCallId,
        sessionId: 'sess-po',
        sessionAuthorId: EXEC_AUTHOR,
        autor: 'po',
        pergunta,
        afeta: { regras: [], historias: [], tarefas: [] },
      },
    });
  const dropped = (await declare('toolu_wd_1', 'Show prices with VAT?')).body.questionId as string;
  const kept = (await declare('toolu_wd_2', 'Round to cents?')).body.questionId as string;
  const turn = async () =>
    (await stack.http('GET', `/internal/projects/${P}/turn-context?role=po`, { service: true })).body as {
      openQuestions: { questionId: string }[];
    };
  await waitFor(async () => (await turn()).openQuestions.some((q) => q.questionId === dropped), {
    what: 'the declared question in the turn context',
  });

  const about = (type: string, key: string, value: string) =>
    stack.events.ofType<Data>(type).filter((e) => e.data[key] === value);
  // §12.1 only the agent that asked: another asker, or the same role in another session, is rejected.
  for (const [toolCallId, viaAgente, sessionId] of [
    ['toolu_wd_other_role', 'arquiteto', 'sess-po'],
    ['toolu_wd_other_session', 'po', 'sess-po-2'],
  ] as const) {
    await stack.publishAgentEvent(AgentEvent.QuestionWithdraw, P, {
      toolCallId,
      questionId: dropped,
      motivo: 'not mine to drop',
      viaAgente,
      sessionId,
    });
    await waitFor(() => about(OpenqEvent.QuestionRejected, 'toolCallId', toolCallId).length > 0, {
      what: `question.rejected for ${toolCallId}`,
    });
    expect(about(OpenqEvent.QuestionRejected, 'toolCallId', toolCallId)[0]).toMatchObject({
      data: { reason: 'so_quem_perguntou' },
    });
  }
  await stack.publishAgentEvent(AgentEvent.QuestionWithdraw, P, {
    toolCallId: 'toolu_wd_3',
    questionId: dropped,
    motivo: 'The story now says prices include VAT',
    viaAgente: 'po',
    sessionId: 'sess-po',
  });
  await waitFor(() => about(OpenqEvent.QuestionWithdrawn, 'questionId', dropped).length > 0, {
    what: 'question.withdrawn by the agent',
  });
  const [event] = about(OpenqEvent.QuestionWithdrawn, 'questionId', dropped);
  expect(event).toMatchObject({ data: { by: { kind: 'agent', id: 'po' } } });
  await waitFor(async () => !(await turn()).openQuestions.some((q) => q.questionId === dropped), {
    what: 'the withdrawn question gone from the turn context',
  });
  expect((await turn()).openQuestions.map((q) => q.questionId)).toContain(kept);

  expect(await answer(kept, { resposta: 'Yes, to cents' })).toMatchObject({ status: 200 });
  await stack.publishAgentEvent(AgentEvent.QuestionWithdraw, P, {
    toolCallId: 'toolu_wd_4',
    questionId: kept,
    motivo: 'moot',
    viaAgente: 'po',
    sessionId: 'sess-po',
  });
  await waitFor(() => about(OpenqEvent.QuestionRejected, 'toolCallId', 'toolu_wd_4').length > 0, {
    what: 'question.rejected for the withdrawal of an answered question',
  });
  const [rejected] = about(OpenqEvent.QuestionRejected, 'toolCallId', 'toolu_wd_4');
  expect(rejected).toMatchObject({ data: { reason: 'pergunta_ja_respondida' } });
});
