import { OpenqEvent } from '@openq/contracts';
import { waitFor } from '@openq/testing';
import { analystPackage, BEFORE, PipelineDriver, Q_AT } from '../support/pipeline';
import { Stack } from '../support/stack';

// SPEC §7 (ADR-0053) end to end: engine events in, the questions service for the log, the
// gateway for the user's click and the queue, gates deciding in between.
let stack: Stack;

beforeAll(async () => {
  stack = await Stack.start({ services: ['questions', 'gates'] });
});
afterAll(() => stack.stop());

const QUESTIONS = [
  { pergunta: 'Which market first?', sugestao: 'Brazil' },
  { pergunta: 'Which tax regime applies?' },
];

async function listAnalystQuestions(p: PipelineDriver) {
  const res = await stack.http('GET', `/projects/${p.projectId}/open-questions?status=all`, {
    token: stack.token('ana', p.projectId, 'viewer'),
  });
  expect(res.status).toBe(200);
  return res.body.items as Record<string, unknown>[];
}

function answer(p: PipelineDriver, questionId: string, body: Record<string, unknown>, user = 'ana') {
  return stack.http('POST', `/projects/${p.projectId}/open-questions/${questionId}/answer`, {
    token: stack.token(user, p.projectId, 'viewer'),
    body,
  });
}

/** The `question.answered` of a question, once gates has processed it. */
async function answerProcessed(p: PipelineDriver, questionId: string) {
  const event = await waitFor(
    () =>
      stack.events
        .ofType<{ questionId: string }>(OpenqEvent.QuestionAnswered)
        .find((e) => e.data.questionId === questionId),
    {
      what: `question.answered ${questionId}`,
    },
  );
  await p.processed(event);
}

describe('pipeline: Needs Input parks the task, the next one enters, answers relaunch it once', () => {
  let p: PipelineDriver;
  beforeAll(() => {
    p = new PipelineDriver(stack, 'pipe-main');
  });

  it('runs the whole flow on repo R with T1 < T2', async () => {
    // 1. T1 admitted; T2 waits behind it (the snapshot says why).
    await p.register('T1', 'R', 1);
    await p.register('T2', 'R', 2);
    await p.published(OpenqEvent.PipelineTaskAdmitted, 'T1');
    expect(await p.written(OpenqEvent.PipelineTaskAdmitted, 'T2')).toEqual([]);
    expect(await p.task('T1', 'R')).toMatchObject({
      stage: 'analysis',
      state: 'active',
      blockingReason: 'none',
    });
    expect(await p.task('T2', 'R')).toMatchObject({
      stage: 'created',
      state: 'waiting',
      blockingReason: 'active_task',
      blockedBy: ['T1'],
    });
    await p.expectQueueAgrees('R');

    // 2. T1's analyst leaves questions (and a stale package): Needs Input wins.
    await p.finishAnalysis('T1', 'R', {
      package: analystPackage(Q_AT, BEFORE),
      questions: QUESTIONS,
      labels: ['auto-approve'],
    });
    const [needsInput] = await p.published(OpenqEvent.PipelineNeedsInput, 'T1');
    const questionIds = needsInput!.data.questionIds as string[];
    expect(needsInput!.data).toEqual({
      taskId: 'T1',
      repo: 'R',
      questionIds: [expect.any(String), expect.any(String)],
    });
    const [paused] = await p.published(OpenqEvent.PipelineTaskPaused, 'T1');
    expect(paused!.data).toEqual({ taskId: 'T1', source: 'engine' });
    await p.published(OpenqEvent.PipelineTaskAdmitted, 'T2');
    expect(await p.written(OpenqEvent.PipelineInReview, 'T1')).toEqual([]);
    expect(await p.written(OpenqEvent.PipelineAdvanced, 'T1')).toEqual([]);

    // The questions are in the log, asked by the analyst about T1, answerable by the session author.
    const listed = await waitFor(
      async () => {
        const items = await listAnalystQuestions(p);
        return items.length === 2 ? items : false;
      },
      { what: 'analyst questions listed' },
    );
    expect(listed.map((q) => q.questionId).sort()).toEqual([...questionIds].sort());
    for (const q of listed) {
      expect(q).toMatchObject({
        autor: 'analyst',
        origin: 'analyst',
        status: 'open',
        sessionAuthorId: 'ana',
        canAnswer: true,
        afeta: { regras: [], historias: [], tarefas: ['T1'] },
      });
    }
    expect(listed.find((q) => q.pergunta === 'Which market first?')).toMatchObject({ sugestao: 'Brazil' });

    expect(await p.task('T1', 'R')).toMatchObject({
      state: 'paused',
      stage: 'analysis',
      questionIds: expect.arrayContaining(questionIds),
    });
    expect(await p.task('T2', 'R')).toMatchObject({ state: 'active', stage: 'analysis' });
    await p.expectQueueAgrees('R');

    // 3. Answering: the first answer changes nothing, the last unparks and relaunches once.
    const [first, second] = listed as { questionId: string; sugestao: string | null }[];
    expect(
      await answer(
        p,
        first!.questionId,
        first!.sugestao ? { aceitarSugestao: true } : { resposta: 'Simples Nacional' },
      ),
    ).toMatchObject({ status: 200 });
    await answerProcessed(p, first!.questionId);
    expect(await p.written(OpenqEvent.PipelineAnalystRelaunch, 'T1')).toEqual([]);
    expect((await p.task('T1', 'R')).state).toBe('paused');

    expect(await answer(p, second!.questionId, { resposta: 'Simples Nacional' })).toMatchObject({
      status: 200,
    });
    await p.published(OpenqEvent.PipelineAnalystRelaunch, 'T1');
    const [unpaused] = await p.published(OpenqEvent.PipelineTaskUnpaused, 'T1');
    expect(unpaused!.data).toEqual({ taskId: 'T1', source: 'engine' });
    expect(await p.task('T1', 'R')).toMatchObject({ state: 'active', pausedAt: null, questionIds: [] });

    // 4. A duplicate trigger (moved back to In Progress) relaunches nothing more.
    const again = await p.status('T1', { status: 'in_progress' });
    await p.processed(again);
    expect(await p.written(OpenqEvent.PipelineAnalystRelaunch, 'T1')).toEqual([{ taskId: 'T1' }]);
    expect(await p.written(OpenqEvent.PipelineTaskUnpaused, 'T1')).toHaveLength(1);
    await p.expectQueueAgrees('R');
    p.expectEventsValid();
  });

  it('moving a Needs Input task back to In Progress unparks and relaunches it once', async () => {
    await p.register('M1', 'M', 1);
    await p.register('M2', 'M', 2);
    await p.published(OpenqEvent.PipelineTaskAdmitted, 'M1');
    await p.finishAnalysis('M1', 'M', {
      package: analystPackage(Q_AT, null),
      questions: [{ pergunta: 'Keep the legacy API?' }],
    });
    await p.published(OpenqEvent.PipelineTaskAdmitted, 'M2');

    const moved = await p.status('M1', { stage: 'analysis', status: 'in_progress' });
    await p.published(OpenqEvent.PipelineAnalystRelaunch, 'M1');
    await p.processed(moved);
    expect(await p.written(OpenqEvent.PipelineTaskUnpaused, 'M1')).toEqual([
      { taskId: 'M1', source: 'engine' },
    ]);

    // The same move again, and the question answered later: still one relaunch.
    const dup = await p.status('M1', { status: 'in_progress' });
    await p.processed(dup);
    const [question] = (await listAnalystQuestions(p)).filter((q) =>
      (q.afeta as { tarefas: string[] }).tarefas.includes('M1'),
    );
    expect(await answer(p, question!.questionId as string, { resposta: 'No' })).toMatchObject({
      status: 200,
    });
    await answerProcessed(p, question!.questionId as string);
    expect(await p.written(OpenqEvent.PipelineAnalystRelaunch, 'M1')).toHaveLength(1);
    await p.expectQueueAgrees('M');
  });

  it('§11.5 a withdrawn analyst question is settled like an answered one: the last one relaunches once', async () => {
    await p.register('W1', 'W', 1);
    await p.published(OpenqEvent.PipelineTaskAdmitted, 'W1');
    await p.finishAnalysis('W1', 'W', {
      package: analystPackage(Q_AT, null),
      questions: [{ pergunta: 'Export to CSV too?' }, { pergunta: 'Keep the v1 report?' }],
    });
    await p.published(OpenqEvent.PipelineNeedsInput, 'W1');
    const ofW1 = async () =>
      (await listAnalystQuestions(p)).filter((q) =>
        (q.afeta as { tarefas: string[] }).tarefas.includes('W1'),
      ) as { questionId: string; pergunta: string }[];
    const [csv, v1] = await waitFor(async () => ((await ofW1()).length === 2 ? ofW1() : false), {
      what: 'W1 questions listed',
    });
    expect(await answer(p, csv!.questionId, { resposta: 'No' })).toMatchObject({ status: 200 });
    await answerProcessed(p, csv!.questionId);
    expect(await p.written(OpenqEvent.PipelineAnalystRelaunch, 'W1')).toEqual([]);

    const withdrawn = await stack.http(
      'POST',
      `/projects/${p.projectId}/open-questions/${v1!.questionId}/withdraw`,
      {
        token: stack.token('ana', p.projectId, 'viewer'),
        body: { motivo: 'The v1 report was retired' },
      },
    );
    expect(withdrawn).toMatchObject({ status: 200, body: { withdrawn: true } });
    await p.published(OpenqEvent.PipelineAnalystRelaunch, 'W1');
    expect(await p.task('W1', 'W')).toMatchObject({ state: 'active', pausedAt: null, questionIds: [] });
    expect(await p.written(OpenqEvent.PipelineAnalystRelaunch, 'W1')).toEqual([{ taskId: 'W1' }]);
  });

  it('files ready (no live questions): In Review, advanced with the auto-approve label; done frees the repo', async () => {
    await p.register('A1', 'AR', 1);
    await p.register('A2', 'AR', 2);
    await p.published(OpenqEvent.PipelineTaskAdmitted, 'A1');
    // The questions file is older than every deliverable: superseded, not active.
    await p.finishAnalysis('A1', 'AR', {
      package: analystPackage(BEFORE, Q_AT),
      questions: QUESTIONS,
      labels: ['auto-approve'],
    });
    await p.published(OpenqEvent.PipelineInReview, 'A1');
    const [advanced] = await p.published(OpenqEvent.PipelineAdvanced, 'A1');
    expect(advanced!.data).toEqual({ taskId: 'A1', to: 'architecture' });
    expect(await p.task('A1', 'AR')).toMatchObject({ stage: 'architecture', state: 'active' });
    expect(await p.task('A2', 'AR')).toMatchObject({ state: 'waiting', blockingReason: 'active_task' });

    await p.status('A1', { status: 'done' });
    await p.published(OpenqEvent.PipelineTaskAdmitted, 'A2');
    expect(await p.task('A1', 'AR')).toMatchObject({ stage: 'done', state: 'done', status: 'done' });
    await p.expectQueueAgrees('AR');
    expect(await p.written(OpenqEvent.PipelineNeedsInput, 'A1')).toEqual([]);
  });
});
