import { OpenqEvent, type EventEnvelope } from '@openq/contracts';
import { waitFor } from '@openq/testing';
import { EXEC_AUTHOR, ask, gatesOf, publishVerdict, startGate } from '../support/gates';
import { POLICY_MAINTAINER, setPolicies } from '../support/policies';
import { Stack } from '../support/stack';

/**
 * SPEC §12.1 / issue #28, the seeds' rules by default through the real stack (gateway, questions,
 * gates; NATS JetStream and PostgreSQL). A new project has both policies off: a grant is refused
 * 409 `delegacao_desligada`, a maintainer's override 403 `override_desligado` (a developer still
 * `papel_insuficiente`), and a parked gate waits only for its session author. A maintainer turns
 * delegation on, with a reason the log keeps (`project.policy_changed`): the grant works, the
 * delegate answers and sees the gate waiting for them; turned off again, the same grant stops
 * working (403 `delegacao_desligada`) and the gate no longer waits for the delegate.
 */
const P = 'projpolicy';
const DELEGATE = 'dani';
const OTHER = 'viewer-1';
let stack: Stack;

beforeAll(async () => {
  stack = await Stack.start({ services: ['questions', 'gates'] });
});
afterAll(() => stack.stop());

type Data = Record<string, unknown>;

const ofTask = (type: string, taskId: string): EventEnvelope<Data>[] =>
  stack.events.ofType<Data>(type).filter((e) => e.projectId === P && e.data['taskId'] === taskId);
const as = (user: string, role: 'viewer' | 'developer' | 'maintainer' = 'viewer') =>
  stack.token(user, P, role);
const policies = (user = OTHER) => stack.http('GET', `/projects/${P}/policies`, { token: as(user) });
const grant = () =>
  stack.http('POST', `/projects/${P}/delegations`, {
    token: as(EXEC_AUTHOR),
    body: { to: DELEGATE, until: new Date(Date.now() + 7 * 24 * 3600 * 1000).toISOString() },
  });
const answer = (questionId: string, user: string) =>
  stack.http('POST', `/projects/${P}/open-questions/${questionId}/answer`, {
    token: as(user),
    body: { resposta: 'Keep it for a month' },
  });
const override = (taskId: string, role: 'developer' | 'maintainer') =>
  stack.http('POST', `/projects/${P}/tasks/${taskId}/gates/qa/resume`, {
    token: as(role === 'maintainer' ? POLICY_MAINTAINER : 'dev-1', role),
    body: { override: true, motivo: 'Customer confirmed by phone' },
  });
const canAnswer = async (questionId: string, user: string) =>
  (
    (await stack.http('GET', `/projects/${P}/open-questions?status=open`, { token: as(user) })).body
      .items as Data[]
  ).find((i) => i['questionId'] === questionId)?.['canAnswer'];
const waitingFor = async (taskId: string, user: string) =>
  (await gatesOf(stack, P, taskId, user)).body[0]?.waitingForYou as boolean;

/** A gate of task `taskId` parked on one question of the author's session; its id. */
async function parkedOn(taskId: string, pergunta: string): Promise<string> {
  await startGate(stack, P, taskId);
  await publishVerdict(stack, P, taskId, 'round-1', [ask('functional', pergunta)]);
  await waitFor(() => ofTask(OpenqEvent.GateRescueParked, taskId).length === 1, { what: `${taskId} parked` });
  return (ofTask(OpenqEvent.GateRescueParked, taskId)[0]!.data['questionIds'] as string[])[0]!;
}

it('a new project keeps the seeds’ rules: no delegation, no override, the gate waits for its author only', async () => {
  const T = 'T-POL1';
  const q = await parkedOn(T, 'Keep the v1 route for a month?');
  expect(await policies()).toEqual({
    status: 200,
    body: { delegacao: false, overrideDeMantenedor: false },
  });

  expect(await grant()).toMatchObject({ status: 409, body: { reason: 'delegacao_desligada' } });
  expect(await override(T, 'developer')).toMatchObject({
    status: 403,
    body: { reason: 'papel_insuficiente' },
  });
  expect(await override(T, 'maintainer')).toMatchObject({
    status: 403,
    body: { reason: 'override_desligado' },
  });
  expect(ofTask(OpenqEvent.GateResumed, T)).toEqual([]);

  // Personal: only the session's author is the one the gate waits for.
  expect(await waitingFor(T, EXEC_AUTHOR)).toBe(true);
  expect(await waitingFor(T, OTHER)).toBe(false);
  expect(await waitingFor(T, DELEGATE)).toBe(false);
  expect(await canAnswer(q, DELEGATE)).toBe(false);
});

it('only a maintainer changes a policy, with a reason the log keeps; on, delegation works; off again, it stops', async () => {
  const T = 'T-POL2';
  const q = await parkedOn(T, 'Archived code: 404 or 410?');
  const put = (body: unknown, role: 'developer' | 'maintainer' = 'maintainer') =>
    stack.http('PUT', `/projects/${P}/policies`, {
      token: as(role === 'maintainer' ? POLICY_MAINTAINER : 'dev-1', role),
      body,
    });
  expect(await put({ delegacao: true, motivo: 'release week' }, 'developer')).toMatchObject({
    status: 403,
    body: { reason: 'papel_insuficiente' },
  });
  for (const motivo of [undefined, '  ', 'x'.repeat(501)]) {
    expect(await put({ delegacao: true, motivo })).toMatchObject({
      status: 400,
      body: { reason: 'motivo_invalido' },
    });
  }
  expect(await put({ motivo: 'nothing to change' })).toMatchObject({ status: 400 });
  expect(stack.events.ofType(OpenqEvent.ProjectPolicyChanged)).toEqual([]);

  expect(await put({ delegacao: true, motivo: '  release week: we answer for each other  ' })).toEqual({
    status: 200,
    body: { delegacao: true, overrideDeMantenedor: false },
  });
  const [changed] = await stack.events.waitForType<Data>(OpenqEvent.ProjectPolicyChanged, 1);
  expect(changed).toMatchObject({
    projectId: P,
    data: {
      projectId: P,
      by: POLICY_MAINTAINER,
      motivo: 'release week: we answer for each other',
      delegacao: true,
      overrideDeMantenedor: false,
    },
  });
  expect((await policies()).body).toEqual({ delegacao: true, overrideDeMantenedor: false });

  expect(await grant()).toMatchObject({ status: 201 });
  expect(await canAnswer(q, DELEGATE)).toBe(true);
  expect(await waitingFor(T, DELEGATE)).toBe(true);
  expect(await waitingFor(T, OTHER)).toBe(false);

  // Off again: the grant stays in the log but no longer works, in the lists and at the click.
  expect(await put({ delegacao: false, motivo: 'release week is over' })).toMatchObject({
    status: 200,
    body: { delegacao: false },
  });
  expect(await canAnswer(q, DELEGATE)).toBe(false);
  expect(await waitingFor(T, DELEGATE)).toBe(false);
  expect(await answer(q, DELEGATE)).toMatchObject({ status: 403, body: { reason: 'delegacao_desligada' } });
  expect(await answer(q, OTHER)).toMatchObject({ status: 403, body: { reason: 'so_o_autor_da_sessao' } });

  // On again: the peers' convenience is back, and the delegate's answer resumes the gate.
  await setPolicies(stack, P, { delegacao: true });
  expect(await answer(q, DELEGATE)).toMatchObject({ status: 200, body: { respondidaPor: EXEC_AUTHOR } });
  await waitFor(() => ofTask(OpenqEvent.GateResumed, T).length === 1, { what: `${T} resumed` });
});

it('with the override policy on, a maintainer resumes a decision park', async () => {
  const T = 'T-POL3';
  await parkedOn(T, 'Drop the legacy export?');
  expect(await override(T, 'maintainer')).toMatchObject({
    status: 403,
    body: { reason: 'override_desligado' },
  });
  await setPolicies(stack, P, { overrideDeMantenedor: true });
  expect(await override(T, 'developer')).toMatchObject({
    status: 403,
    body: { reason: 'papel_insuficiente' },
  });
  expect(await override(T, 'maintainer')).toEqual({ status: 200, body: { ok: true } });
  await waitFor(() => ofTask(OpenqEvent.GateResumed, T).length === 1, { what: `${T} resumed` });
  expect(ofTask(OpenqEvent.GateResumed, T)[0]).toMatchObject({
    data: { trigger: 'override', by: POLICY_MAINTAINER },
  });
});
