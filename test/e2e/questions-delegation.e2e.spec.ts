import { OpenqEvent, type EventEnvelope } from '@openq/contracts';
import { waitFor } from '@openq/testing';
import { EXEC_AUTHOR, ask, gatesOf, publishVerdict, startGate } from '../support/gates';
import { setPolicies } from '../support/policies';
import { Stack } from '../support/stack';

/**
 * SPEC §11.6 / issue #17, delegation through the real stack (gateway, questions, gates, context;
 * NATS JetStream and PostgreSQL): the session author grants a delegate, the delegate answers the
 * author's question by click, the log records both (respondidaPor the author, answeredBy the
 * delegate, the grant) and the gate resumes; after a revocation the delegate is refused
 * `delegacao_revogada`, after `until` passes `delegacao_expirada`, and a third person stays
 * `so_o_autor_da_sessao`. The context's decisions say who answered for whom. Delegation is a
 * project policy, off by default (§12.1): this project turns it on first.
 */
const P = 'projdeleg';
const DELEGATE = 'dani';
const DELEGATE2 = 'duda';
const THIRD = 'caio';
let stack: Stack;

beforeAll(async () => {
  stack = await Stack.start({ services: ['questions', 'gates', 'context'] });
  await setPolicies(stack, P, { delegacao: true });
});
afterAll(() => stack.stop());

type Data = Record<string, unknown>;

const ofTask = (type: string, taskId: string): EventEnvelope<Data>[] =>
  stack.events.ofType<Data>(type).filter((e) => e.projectId === P && e.data['taskId'] === taskId);
const ofQuestion = (type: string, questionId: string): EventEnvelope<Data>[] =>
  stack.events.ofType<Data>(type).filter((e) => e.data['questionId'] === questionId);

const as = (user: string) => stack.token(user, P, 'viewer');
const grant = (body: unknown, user = EXEC_AUTHOR) =>
  stack.http('POST', `/projects/${P}/delegations`, { token: as(user), body });
const revoke = (grantId: string, user = EXEC_AUTHOR) =>
  stack.http('POST', `/projects/${P}/delegations/${grantId}/revoke`, { token: as(user) });
const delegations = (user: string) => stack.http('GET', `/projects/${P}/delegations`, { token: as(user) });
const answer = (questionId: string, user: string, resposta = 'Yes, for a month') =>
  stack.http('POST', `/projects/${P}/open-questions/${questionId}/answer`, {
    token: as(user),
    body: { resposta },
  });
const listedFor = async (user: string): Promise<Data[]> =>
  (await stack.http('GET', `/projects/${P}/open-questions?status=open&sort=oldest`, { token: as(user) })).body
    .items as Data[];

const inDays = (days: number) => new Date(Date.now() + days * 24 * 3600 * 1000).toISOString();

/** A gate of task `taskId` parked on one question of ana's session; its id. */
async function parkedOn(taskId: string, pergunta: string): Promise<string> {
  await startGate(stack, P, taskId);
  await publishVerdict(stack, P, taskId, 'round-1', [ask('functional', pergunta)]);
  await waitFor(() => ofTask(OpenqEvent.GateRescueParked, taskId).length === 1, { what: `${taskId} parked` });
  return (ofTask(OpenqEvent.GateRescueParked, taskId)[0]!.data['questionIds'] as string[])[0]!;
}

it('a delegate answers the author’s question: the log records both, and the gate resumes', async () => {
  const T = 'T-DG1';
  const q = await parkedOn(T, 'Keep the v1 route for a month?');

  // Before any grant: the delegate is like anyone else.
  expect(await answer(q, DELEGATE)).toMatchObject({ status: 403, body: { reason: 'so_o_autor_da_sessao' } });

  // Bad grants: 400 delegacao_invalida naming the field.
  expect(await grant({ to: EXEC_AUTHOR, until: inDays(1) })).toMatchObject({
    status: 400,
    body: { reason: 'delegacao_invalida', field: 'to' },
  });
  for (const until of [new Date(Date.now() - 60_000).toISOString(), inDays(91)]) {
    expect(await grant({ to: DELEGATE, until })).toMatchObject({
      status: 400,
      body: { reason: 'delegacao_invalida', field: 'until' },
    });
  }
  expect(await grant({ to: DELEGATE, until: 'tomorrow' })).toMatchObject({ status: 400 });

  const until = inDays(7);
  const granted = await grant({ to: DELEGATE, until });
  expect(granted).toMatchObject({
    status: 201,
    body: { grantId: expect.any(String), from: EXEC_AUTHOR, to: DELEGATE, until },
  });
  const grantId = granted.body.grantId as string;
  await stack.events.waitForType(OpenqEvent.DelegationGranted, 1);
  expect(stack.events.ofType<Data>(OpenqEvent.DelegationGranted)[0]).toMatchObject({
    projectId: P,
    data: { grantId, projectId: P, from: EXEC_AUTHOR, to: DELEGATE, until },
  });

  // Both sides see it; the delegate's list says for whom they may answer, a third person's does not.
  expect((await delegations(EXEC_AUTHOR)).body).toMatchObject({
    given: [{ grantId, to: DELEGATE, status: 'active' }],
    received: [],
  });
  expect((await delegations(DELEGATE)).body).toMatchObject({
    given: [],
    received: [{ grantId, from: EXEC_AUTHOR, status: 'active' }],
  });
  expect((await listedFor(DELEGATE)).find((i) => i['questionId'] === q)).toMatchObject({
    canAnswer: true,
    inertReason: null,
    answeringAs: { userId: EXEC_AUTHOR, grantId, until },
  });
  expect((await listedFor(THIRD)).find((i) => i['questionId'] === q)).toMatchObject({
    canAnswer: false,
    answeringAs: null,
    inertReason: expect.stringContaining(`Only ${EXEC_AUTHOR}`),
  });
  expect(await answer(q, THIRD)).toMatchObject({ status: 403, body: { reason: 'so_o_autor_da_sessao' } });

  // The delegate answers: respondidaPor stays the author; the log says who clicked and under which grant.
  expect(await answer(q, DELEGATE)).toMatchObject({
    status: 200,
    body: { questionId: q, status: 'answered', respondidaPor: EXEC_AUTHOR },
  });
  await waitFor(() => ofQuestion(OpenqEvent.DecisionRecorded, q).length === 1, { what: 'the decision' });
  expect(ofQuestion(OpenqEvent.QuestionAnswered, q)[0]!.data).toMatchObject({
    respondidaPor: EXEC_AUTHOR,
    answeredBy: DELEGATE,
    grantId,
    viaAgente: null,
  });
  expect(ofQuestion(OpenqEvent.DecisionRecorded, q)[0]!.data).toMatchObject({
    actor: { kind: 'user', id: EXEC_AUTHOR },
    answeredBy: DELEGATE,
    grantId,
  });
  await waitFor(() => ofTask(OpenqEvent.GateResumed, T).length === 1, { what: `${T} resumed` });
  expect(ofTask(OpenqEvent.GateResumed, T)[0]).toMatchObject({
    data: { trigger: 'answer', questionIds: [q] },
  });
  expect((await gatesOf(stack, P, T)).body[0]).toMatchObject({ state: 'running' });

  // The list shows who answered for whom.
  const answered = (
    await stack.http('GET', `/projects/${P}/open-questions?status=answered`, { token: as(EXEC_AUTHOR) })
  ).body.items as Data[];
  expect(answered.find((i) => i['questionId'] === q)).toMatchObject({
    respondidaPor: EXEC_AUTHOR,
    answeredBy: DELEGATE,
    grantId,
  });

  // The dev kickoff's decisions say it too.
  await waitFor(
    async () =>
      ((await stack.http('GET', `/internal/projects/${P}/tasks/${T}/dev-context`, { service: true })).body
        ?.decisoes?.length ?? 0) === 1,
    { what: 'the decision in the dev kickoff' },
  );
  const kickoff = await stack.http('GET', `/internal/projects/${P}/tasks/${T}/dev-context`, {
    service: true,
  });
  expect(kickoff.body.decisoes[0]).toMatchObject({ respondidaPor: EXEC_AUTHOR, answeredBy: DELEGATE });
});

it('revoked → delegacao_revogada; expired → delegacao_expirada; only the grantor revokes, once', async () => {
  // Another delegate than the first test's, whose grant from ana is still live.
  const q = await parkedOn('T-DG2', 'Archived code: 404 or 410?');
  const granted = await grant({ to: DELEGATE2, until: inDays(1) });
  expect(granted.status).toBe(201);
  const grantId = granted.body.grantId as string;

  expect(await revoke(grantId, DELEGATE2)).toMatchObject({
    status: 403,
    body: { reason: 'so_quem_delegou' },
  });
  expect(await revoke('0190a3b8-7c1d-7e2f-8a3b-1c2d3e4f5a6b')).toMatchObject({
    status: 404,
    body: { reason: 'delegacao_nao_encontrada' },
  });
  expect(await revoke(grantId)).toMatchObject({
    status: 200,
    body: { grantId, status: 'revoked', revokedBy: EXEC_AUTHOR },
  });
  expect(await revoke(grantId)).toMatchObject({ status: 409, body: { reason: 'delegacao_ja_revogada' } });
  await stack.events.waitForType(OpenqEvent.DelegationRevoked, 1);
  expect((await listedFor(DELEGATE2)).find((i) => i['questionId'] === q)).toMatchObject({
    canAnswer: false,
    answeringAs: null,
  });
  expect(await answer(q, DELEGATE2)).toMatchObject({ status: 403, body: { reason: 'delegacao_revogada' } });

  // A short grant: live at first, then refused once its `until` has passed (polled, not slept).
  const until = new Date(Date.now() + 1500).toISOString();
  expect(await grant({ to: DELEGATE2, until })).toMatchObject({ status: 201 });
  await waitFor(() => Date.now() > Date.parse(until), { what: 'the short grant to pass its until' });
  expect(await answer(q, DELEGATE2)).toMatchObject({ status: 403, body: { reason: 'delegacao_expirada' } });
  expect((await delegations(DELEGATE2)).body.received.map((g: Data) => g['status'])).toEqual([
    'expired',
    'revoked',
  ]);

  // Nothing was recorded for the refused clicks; the author still answers.
  expect(ofQuestion(OpenqEvent.QuestionAnswered, q)).toEqual([]);
  expect(await answer(q, EXEC_AUTHOR)).toMatchObject({ status: 200, body: { respondidaPor: EXEC_AUTHOR } });
  await waitFor(() => ofQuestion(OpenqEvent.QuestionAnswered, q).length === 1, { what: 'the answer' });
  expect(ofQuestion(OpenqEvent.QuestionAnswered, q)[0]!.data).toMatchObject({ answeredBy: EXEC_AUTHOR });
  expect(ofQuestion(OpenqEvent.QuestionAnswered, q)[0]!.data).not.toHaveProperty('grantId');
});
