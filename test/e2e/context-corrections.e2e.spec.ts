import { AgentEvent, OpenqEvent, type StoryCorrected } from '@openq/contracts';
import { waitFor } from '@openq/testing';
import {
  answer,
  consumedByContext,
  declare,
  publishAgentEventAt,
  story,
  taskStatus,
  upsertStory,
} from '../support/context-helpers';
import { Stack } from '../support/stack';

const P = 'proj-stories';
let stack: Stack;

beforeAll(async () => {
  stack = await Stack.start({ services: ['questions', 'context'] });
});
afterAll(() => stack.stop());

type Door = 'user' | 'agent';

/** SPEC §4: the developer's route and its `/internal` twin (actor agent/po). */
function correct(door: Door, storyId: string, body: Record<string, unknown>) {
  return door === 'user'
    ? stack.http('POST', `/projects/${P}/stories/${storyId}/corrections`, {
        token: stack.token('dev1', P, 'developer'),
        body,
      })
    : stack.http('POST', `/internal/projects/${P}/stories/${storyId}/corrections`, { service: true, body });
}

/** One rule for both doors: both give the same answer. */
async function correctBoth(storyId: string, body: Record<string, unknown>) {
  const user = await correct('user', storyId, body);
  const agent = await correct('agent', storyId, body);
  expect({ status: agent.status, reason: agent.body.reason }).toEqual({
    status: user.status,
    reason: user.body.reason,
  });
  return user;
}

const devContext = (taskId: string) =>
  stack.http('GET', `/projects/${P}/tasks/${taskId}/dev-context`, {
    token: stack.token('vera', P, 'viewer'),
  });

describe('context: story corrections (SPEC §6.4, ADR 0214 §8)', () => {
  it('corrects a draft story through the user door and publishes story.corrected', async () => {
    await upsertStory(stack, P, 'S-1', { taskIds: ['T-1'] });
    const res = await correct('user', 'S-1', { changes: { title: 'Lookup by code, any case', dor: [] } });
    expect(res).toMatchObject({ status: 200, body: { applied: true, storyId: 'S-1' } });

    const [event] = await stack.events.waitForType<StoryCorrected>(OpenqEvent.StoryCorrected, 1);
    expect(event!.projectId).toBe(P);
    expect(event!.data).toEqual({
      storyId: 'S-1',
      questionId: null,
      actor: { kind: 'user', id: 'dev1' },
      changes: { title: 'Lookup by code, any case', dor: [] },
    });
    const dev = await devContext('T-1');
    expect(dev.body.story).toMatchObject({ title: 'Lookup by code, any case', dor: [] });

    // the same correction again changes nothing: still applied, no second event
    expect(await correct('user', 'S-1', { changes: { title: 'Lookup by code, any case' } })).toMatchObject({
      status: 200,
    });
    expect(await correct('user', 'S-1', { changes: {} })).toMatchObject({ status: 400 });
    // an optional field sent as null is "not given", never a value
    expect(await correct('user', 'S-1', { changes: { title: null, rnf: ['p95 < 200 ms'] } })).toMatchObject({
      status: 200,
    });
    expect((await devContext('T-1')).body.story).toMatchObject({
      title: 'Lookup by code, any case',
      rnf: ['p95 < 200 ms'],
    });
    // two events: the first correction and the rnf one; the repeated one published nothing
    const ofS1 = () =>
      stack.events.ofType<StoryCorrected>(OpenqEvent.StoryCorrected).filter((e) => e.data.storyId === 'S-1');
    await waitFor(() => ofS1().length >= 2, { what: 'story.corrected of the rnf correction' });
    expect(ofS1().map((e) => e.data.changes)).toEqual([
      { title: 'Lookup by code, any case', dor: [] },
      { rnf: ['p95 < 200 ms'] },
    ]);
    expect(await correct('user', 'S-404', { changes: { title: 'x' } })).toMatchObject({
      status: 404,
      body: { reason: 'historia_nao_encontrada' },
    });
    const viewerTry = await stack.http('POST', `/projects/${P}/stories/S-1/corrections`, {
      token: stack.token('vera', P, 'viewer'),
      body: { changes: { title: 'nope' } },
    });
    expect(viewerTry.status).toBe(403);
  });

  it('keeps a correction over an older upsert delivered late, and yields to a newer one', async () => {
    const original = await upsertStory(stack, P, 'S-5', { taskIds: ['T-5'] });
    expect(await correct('agent', 'S-5', { changes: { rf: ['FR-1 any case'] } })).toMatchObject({
      status: 200,
    });
    const corrected = await waitFor(
      () =>
        stack.events.ofType<StoryCorrected>(OpenqEvent.StoryCorrected).find((e) => e.data.storyId === 'S-5'),
      { what: 'story.corrected of S-5' },
    );
    expect(Date.parse(corrected.occurredAt)).toBeGreaterThan(Date.parse(original.occurredAt));

    // an upsert the engine made after the first one but before the correction, delivered after it
    const before = new Date(Date.parse(corrected.occurredAt) - 1);
    const late = await publishAgentEventAt(
      stack,
      AgentEvent.StoryUpserted,
      P,
      story('S-5', { taskIds: ['T-5'], status: 'ready' }),
      before,
    );
    await consumedByContext(stack, late);
    const kept = await devContext('T-5');
    expect(kept.body.story.rf).toEqual(['FR-1 any case']);
    // its snapshot part (status) is still newer than the first upsert's: a ready story, no question cited
    expect(await correct('user', 'S-5', { changes: { title: 'x' } })).toMatchObject({
      body: { reason: 'historia_nao_draft' },
    });

    await upsertStory(stack, P, 'S-5', { taskIds: ['T-5'], rf: ['FR-1 from the engine'] });
    expect((await devContext('T-5')).body.story.rf).toEqual(['FR-1 from the engine']);
  });

  it('refuses in order — archived, task running, not draft, open question — then corrects a ready story by an answered question', async () => {
    const questionId = await declare(stack, P, 'Must lookups ignore case?', { historias: ['S-9'] }, 'Yes');
    await waitFor(
      async () => {
        const turn = await stack.http('GET', `/internal/projects/${P}/turn-context?role=po`, {
          service: true,
        });
        return turn.body.openQuestions.some((q: { questionId: string }) => q.questionId === questionId);
      },
      { what: 'the open question known to context' },
    );
    await upsertStory(stack, P, 'S-9', { status: 'ready', archived: true, taskIds: ['T-9a'] });
    await taskStatus(stack, P, { taskId: 'T-9a', status: 'in_progress' });
    await taskStatus(stack, P, { taskId: 'T-9b', storyId: 'S-9', status: 'in_review' });
    const changes = { dor: ['FR-1 confirmed: case-insensitive'] };
    const body = { questionId, changes };

    expect(await correctBoth('S-9', body)).toMatchObject({
      status: 409,
      body: { reason: 'historia_arquivada' },
    });

    await upsertStory(stack, P, 'S-9', { status: 'ready', taskIds: ['T-9a'] });
    expect(await correctBoth('S-9', body)).toMatchObject({
      status: 409,
      body: { reason: 'historia_com_tarefa_em_execucao' },
    });

    await taskStatus(stack, P, { taskId: 'T-9a', status: 'done' });
    // T-9b names the story only in its own status event: it still counts
    expect(await correctBoth('S-9', body)).toMatchObject({
      status: 409,
      body: { reason: 'historia_com_tarefa_em_execucao' },
    });

    await taskStatus(stack, P, { taskId: 'T-9b', status: 'todo' });
    expect(await correctBoth('S-9', { changes })).toMatchObject({
      status: 409,
      body: { reason: 'historia_nao_draft' },
    });
    expect(await correctBoth('S-9', body)).toMatchObject({
      status: 409,
      body: { reason: 'pergunta_nao_respondida' },
    });

    await answer(stack, P, questionId, 'Yes, case-insensitive');
    const applied = await waitFor(
      async () => {
        const res = await correct('agent', 'S-9', body);
        return res.status === 200 ? res : false;
      },
      { what: 'the answer reaching context, then the correction applied' },
    );
    expect(applied.body).toEqual({ applied: true, storyId: 'S-9' });

    const corrected = await waitFor(
      () =>
        stack.events.ofType<StoryCorrected>(OpenqEvent.StoryCorrected).find((e) => e.data.storyId === 'S-9'),
      { what: 'story.corrected of S-9' },
    );
    expect(corrected.data).toEqual({
      storyId: 'S-9',
      questionId,
      actor: { kind: 'agent', id: 'po' },
      changes: { dor: ['FR-1 confirmed: case-insensitive'] },
    });
    expect(
      stack.events.ofType<StoryCorrected>(OpenqEvent.StoryCorrected).filter((e) => e.data.storyId === 'S-9'),
    ).toHaveLength(1);
    // The correction needed question.answered; the kickoff's decisions come from decision.recorded,
    // another durable of the context service that may be applied a moment later.
    const dev = await waitFor(
      async () => {
        const res = await devContext('T-9a');
        return res.body.decisoes.length > 0 ? res : false;
      },
      { what: "the decision in T-9a's dev kickoff" },
    );
    expect(dev.body.story.dor).toEqual(['FR-1 confirmed: case-insensitive']);
    expect(dev.body.decisoes.map((d: { questionId: string }) => d.questionId)).toEqual([questionId]);
  });

  it('refuses an in-progress story whatever it cites', async () => {
    await upsertStory(stack, P, 'S-7', { status: 'in_progress' });
    expect(await correctBoth('S-7', { changes: { title: 'x' } })).toMatchObject({
      status: 409,
      body: { reason: 'historia_nao_draft' },
    });
  });
});
