import { AgentEvent, OpenqEvent, type EventEnvelope } from '@openq/contracts';
import { waitFor } from '@openq/testing';
import { EXEC_AUTHOR, ask, emitted, gatesOf, publishVerdict, startGate } from '../support/gates';
import { Stack } from '../support/stack';

/**
 * SPEC §11.5, amending an agent's answer, through the real stack (gateway, questions, gates,
 * context; NATS JetStream and PostgreSQL): a QA verdict parks the gate on a question, the po agent
 * records an answer from the chat and the gate resumes; the session author amends it. The new
 * decision wins in the dev kickoff, the QA cut and the askers' turn; the gate is not parked again
 * and `decision.superseded` is on the stream for the engine. The route's refusals.
 */
const P = 'projam';
let stack: Stack;

beforeAll(async () => {
  stack = await Stack.start({ services: ['questions', 'gates', 'context'] });
});
afterAll(() => stack.stop());

type Data = Record<string, unknown>;

const as = (user: string) => stack.token(user, P, 'viewer');
const amend = (questionId: string, body: unknown, user = EXEC_AUTHOR) =>
  stack.http('POST', `/projects/${P}/open-questions/${questionId}/amend`, { token: as(user), body });
const about = (type: string, questionId: string) =>
  stack.events.ofType<Data>(type).filter((e) => e.projectId === P && e.data['questionId'] === questionId);

interface Decisao {
  decisionEventId: string;
  questionId: string;
  resposta: string;
  viaAgente: string | null;
}

it("the author amends an agent's answer: the new decision wins everywhere, the resumed gate stays resumed", async () => {
  const T = 'T-AM1';
  await startGate(stack, P, T);
  await publishVerdict(stack, P, T, 'round-1', [ask('functional', 'Archived code: 404 or 410?', '410 Gone')]);
  const parked = () =>
    stack.events.ofType<Data>(OpenqEvent.GateRescueParked).filter((e) => e.data['taskId'] === T);
  await waitFor(() => parked().length === 1, { what: `${T} parked` });
  const [q] = parked()[0]!.data['questionIds'] as string[];

  // The po agent records what it understood from the chat (ADR 0258): the gate resumes on it.
  await stack.publishAgentEvent(AgentEvent.QuestionAnswer, P, {
    toolCallId: 'toolu_am_1',
    questionId: q,
    resposta: '410 Gone',
    viaAgente: 'po',
  });
  const resumed = () =>
    stack.events.ofType<Data>(OpenqEvent.GateResumed).filter((e) => e.data['taskId'] === T);
  await waitFor(() => resumed().length === 1, { what: `${T} resumed on the agent's answer` });
  const agentDecision = about(OpenqEvent.QuestionAnswered, q!)[0]!.data['decisionEventId'] as string;

  // Refusals first: not the author, an empty body, another project's (or no) question.
  expect(await amend(q!, { resposta: 'x' }, 'bia')).toMatchObject({
    status: 403,
    body: { reason: 'so_o_autor_da_sessao' },
  });
  for (const body of [{}, { resposta: '  ' }, { aceitarSugestao: true }]) {
    expect(await amend(q!, body)).toMatchObject({ status: 400, body: { reason: 'corpo_invalido' } });
  }
  expect(await amend('0190a3b8-7c1d-7e2f-8a3b-1c2d3e4f5a6b', { resposta: 'x' })).toMatchObject({
    status: 404,
    body: { reason: 'pergunta_nao_encontrada' },
  });

  const amended = await amend(q!, { resposta: ' 404: archived codes were never public ' });
  expect(amended).toEqual({
    status: 200,
    body: {
      questionId: q,
      decisionEventId: expect.any(String) as unknown as string,
      supersededDecisionEventId: agentDecision,
      resposta: '404: archived codes were never public',
      alreadyAmended: false,
    },
  });
  const newDecision = amended.body.decisionEventId as string;
  expect(newDecision).not.toBe(agentDecision);

  // On the stream for the engine: the new decision record and the supersession.
  await waitFor(() => about(OpenqEvent.DecisionSuperseded, q!).length === 1, { what: 'decision.superseded' });
  expect(about(OpenqEvent.DecisionSuperseded, q!)[0]).toMatchObject({
    eventId: expect.any(String) as unknown as string,
    data: {
      supersededDecisionEventId: agentDecision,
      supersededViaAgente: 'po',
      decisionEventId: newDecision,
      resposta: '404: archived codes were never public',
      by: EXEC_AUTHOR,
    },
  });
  const records = about(OpenqEvent.DecisionRecorded, q!);
  expect(records.map((e) => [e.eventId, e.data['viaAgente']])).toEqual([
    [agentDecision, 'po'],
    [newDecision, null],
  ]);

  // The newest decision wins in the three contexts (one decision per question).
  const only = (decisoes: Decisao[]) => decisoes.filter((d) => d.questionId === q);
  const newest = [
    expect.objectContaining({
      decisionEventId: newDecision,
      resposta: '404: archived codes were never public',
      viaAgente: null,
    }),
  ];
  const read = async (path: string) =>
    (await stack.http('GET', path, { service: true })).body as { decisoes: Decisao[]; text: string };
  for (const path of [
    `/internal/projects/${P}/tasks/${T}/dev-context`,
    `/internal/projects/${P}/tasks/${T}/qa-cut`,
    `/internal/projects/${P}/turn-context?role=po`,
  ]) {
    await waitFor(async () => only((await read(path)).decisoes)[0]?.decisionEventId === newDecision, {
      what: `the amended decision in ${path}`,
    });
    const context = await read(path);
    expect(only(context.decisoes)).toEqual(newest);
    expect(context.text).toContain('404: archived codes were never public');
    expect(context.text).not.toContain('410 Gone');
  }

  // The gate that resumed on the agent's answer is not parked again.
  expect((await gatesOf(stack, P, T)).body[0]).toMatchObject({ state: 'running', waitingForYou: false });
  expect(await emitted(stack, OpenqEvent.GateRescueParked, P, T)).toHaveLength(1);
  expect(await emitted(stack, OpenqEvent.GateResumed, P, T)).toHaveLength(1);

  // Again with the same words: 200 with the same amendment; with other words: 409.
  expect(await amend(q!, { resposta: '404: archived codes were never public' })).toMatchObject({
    status: 200,
    body: { decisionEventId: newDecision, alreadyAmended: true },
  });
  expect(await amend(q!, { resposta: '410 after all' })).toMatchObject({
    status: 409,
    body: { reason: 'decisao_nao_e_de_agente' },
  });

  // The list shows the standing decision, and what it superseded.
  const list = await stack.http('GET', `/projects/${P}/open-questions?status=answered`, {
    token: as(EXEC_AUTHOR),
  });
  expect((list.body.items as Data[]).find((i) => i['questionId'] === q)).toMatchObject({
    resposta: '404: archived codes were never public',
    decisionEventId: newDecision,
    viaAgente: null,
    canAmend: false,
    amendment: {
      supersededDecisionEventId: agentDecision,
      supersededViaAgente: 'po',
      supersededResposta: '410 Gone',
    },
  });
});

it('a decision made by click is not an agent decision: 409 decisao_nao_e_de_agente', async () => {
  const declared = await stack.http('POST', `/internal/projects/${P}/open-questions`, {
    service: true,
    body: {
      toolCallId: 'toolu_am_2',
      sessionId: 'sess-po',
      sessionAuthorId: EXEC_AUTHOR,
      autor: 'po',
      pergunta: 'Round to cents?',
      afeta: { regras: [], historias: [], tarefas: [] },
    },
  });
  const q = declared.body.questionId as string;
  expect(await amend(q, { resposta: 'Yes' })).toMatchObject({
    status: 409,
    body: { reason: 'decisao_nao_e_de_agente' },
  });
  const answered = await stack.http('POST', `/projects/${P}/open-questions/${q}/answer`, {
    token: as(EXEC_AUTHOR),
    body: { resposta: 'Yes, to cents' },
  });
  expect(answered.status).toBe(200);
  expect(await amend(q, { resposta: 'No' })).toMatchObject({
    status: 409,
    body: { reason: 'decisao_nao_e_de_agente' },
  });
  const superseded: EventEnvelope[] = about(OpenqEvent.DecisionSuperseded, q);
  expect(superseded).toHaveLength(0);
});
