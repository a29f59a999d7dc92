import { OpenqEvent, type EventEnvelope } from '@openq/contracts';
import { waitFor } from '@openq/testing';
import { EXEC_AUTHOR, ask, drained, emitted, gatesOf, publishVerdict, startGate } from '../support/gates';
import { setPolicies } from '../support/policies';
import { Stack } from '../support/stack';

/**
 * SPEC §11.1, the operator's way out of a decision park, through the real stack (gateway,
 * questions, gates; NATS JetStream and PostgreSQL): a QA verdict parks the gate on a real
 * question, a maintainer resumes it with a reason, `gate.resumed` (trigger override, by,
 * motivo) reaches the stream, the question stays open, and its later answer resumes nothing.
 * The override is a project policy, off by default (§12.1): this project turns it on first.
 */
const P = 'projov';
let stack: Stack;

beforeAll(async () => {
  stack = await Stack.start({ services: ['questions', 'gates'] });
  await setPolicies(stack, P, { overrideDeMantenedor: true });
});
afterAll(() => stack.stop());

type GateEventData = { taskId: string } & Record<string, unknown>;

const ofTask = (type: string, taskId: string): EventEnvelope<GateEventData>[] =>
  stack.events.ofType<GateEventData>(type).filter((e) => e.projectId === P && e.data.taskId === taskId);

const overrideAs = (role: 'viewer' | 'developer' | 'maintainer', taskId: string, body: unknown) =>
  stack.http('POST', `/projects/${P}/tasks/${taskId}/gates/qa/resume`, {
    token: stack.token(role === 'maintainer' ? 'maria' : `${role}-1`, P, role),
    body,
  });

const openQuestionIds = async (): Promise<string[]> => {
  const list = await stack.http('GET', `/projects/${P}/open-questions?status=open`, {
    token: stack.token(EXEC_AUTHOR, P, 'viewer'),
  });
  return (list.body.items as { questionId: string }[]).map((q) => q.questionId);
};

it('a maintainer resumes a decision park with a reason; the question stays open and its answer resumes nothing', async () => {
  const T = 'T-OV1';
  await startGate(stack, P, T);
  await publishVerdict(stack, P, T, 'round-1', [ask('functional', 'Archived code: 404 or 410?', '410 Gone')]);
  await waitFor(() => ofTask(OpenqEvent.GateRescueParked, T).length === 1, { what: `${T} parked` });
  const [questionId] = ofTask(OpenqEvent.GateRescueParked, T)[0]!.data.questionIds as string[];
  expect(await openQuestionIds()).toContain(questionId);

  // Never by a developer or a viewer; a maintainer's bad reason is refused with its code.
  const reason = { override: true, motivo: '  Customer confirmed 410 by phone (ticket 4411)  ' };
  for (const role of ['viewer', 'developer'] as const) {
    expect(await overrideAs(role, T, reason)).toMatchObject({
      status: 403,
      body: { reason: 'papel_insuficiente' },
    });
  }
  expect(await overrideAs('maintainer', T, { override: true, motivo: ' ' })).toMatchObject({
    status: 400,
    body: { reason: 'motivo_invalido' },
  });
  // Without override a developer still gets the §4 answer: the gate waits on its question.
  expect(await overrideAs('developer', T, undefined)).toMatchObject({
    status: 409,
    body: { reason: 'gate_aguarda_decisao', questionIds: [questionId] },
  });
  expect((await gatesOf(stack, P, T)).body[0]).toMatchObject({ state: 'parked', waitingForYou: true });

  expect(await overrideAs('maintainer', T, reason)).toEqual({ status: 200, body: { ok: true } });
  const [resumed] = await stack.events.waitForType<GateEventData>(OpenqEvent.GateResumed, 1);
  expect(resumed).toMatchObject({
    projectId: P,
    data: {
      taskId: T,
      gate: 'qa',
      trigger: 'override',
      by: 'maria',
      motivo: 'Customer confirmed 410 by phone (ticket 4411)',
      questionIds: [questionId],
      decisionEventIds: [],
    },
  });
  expect((await gatesOf(stack, P, T)).body[0]).toMatchObject({
    state: 'running',
    parkedReason: null,
    questionIds: [],
    waitingForYou: false,
  });
  expect(await openQuestionIds()).toContain(questionId);
  expect(await overrideAs('maintainer', T, reason)).toMatchObject({
    status: 409,
    body: { reason: 'gate_nao_estacionado' },
  });

  // The question is answered later: the answer is recorded, the cycle is not resumed twice.
  const answered = await stack.http('POST', `/projects/${P}/open-questions/${questionId}/answer`, {
    token: stack.token(EXEC_AUTHOR, P, 'viewer'),
    body: { aceitarSugestao: true },
  });
  expect(answered).toMatchObject({ status: 200, body: { status: 'answered' } });
  await drained(stack, OpenqEvent.QuestionAnswered);
  expect(await openQuestionIds()).not.toContain(questionId);
  expect(await emitted(stack, OpenqEvent.GateResumed, P, T)).toHaveLength(1);
  expect(ofTask(OpenqEvent.GateResumed, T)).toHaveLength(1);

  // The gate's history shows the override, who and why, newest first (and the project's too).
  const history = await stack.http('GET', `/projects/${P}/tasks/${T}/gates/qa/history`, {
    token: stack.token('viewer-1', P, 'viewer'),
  });
  expect(history.status).toBe(200);
  expect(history.body.items.map((e: { type: string }) => e.type)).toEqual([
    'gate.resumed',
    'gate.rescue_parked',
    'gate.verdict_recorded',
  ]);
  expect(history.body).toMatchObject({
    total: 3,
    items: [
      {
        taskId: T,
        gate: 'qa',
        type: 'gate.resumed',
        occurredAt: expect.any(String) as unknown as string,
        data: { trigger: 'override', by: 'maria', motivo: 'Customer confirmed 410 by phone (ticket 4411)' },
      },
      { type: 'gate.rescue_parked', data: { reason: 'user_decision', questionIds: [questionId] } },
      { type: 'gate.verdict_recorded', data: { veredito: 'needs_user_decision', nextAction: 'parked' } },
    ],
  });
  const project = await stack.http('GET', `/projects/${P}/gate-history?limit=1`, {
    token: stack.token('viewer-1', P, 'viewer'),
  });
  expect(project.body).toMatchObject({ total: 3, items: [{ taskId: T, data: { trigger: 'override' } }] });
});
