import { OpenqEvent } from '@openq/contracts';
import { AdmissionSweep } from '../../services/gates/src/pipeline/commands/admit-next/admission.sweep';
import { PipelineDriver } from '../support/pipeline';
import { Stack } from '../support/stack';

// SPEC §7: the pause axis never bypasses dependencies or freezes; operators pause and resume;
// the queue snapshot agrees with admission throughout.
let stack: Stack;

beforeAll(async () => {
  stack = await Stack.start({ services: ['questions', 'gates'] });
});
afterAll(() => stack.stop());

describe('pipeline: what a pause does not bypass', () => {
  it('a dependency still blocks the next task while the first is paused', async () => {
    const p = new PipelineDriver(stack, 'pipe-deps');
    await p.register('LIB1', 'lib', 1);
    await p.register('A1', 'app', 1);
    await p.register('A2', 'app', 2, ['LIB1']);
    await p.published(OpenqEvent.PipelineTaskAdmitted, 'A1');
    await p.published(OpenqEvent.PipelineTaskAdmitted, 'LIB1');
    // Precedence: dependency > active task.
    expect(await p.task('A2', 'app')).toMatchObject({
      state: 'waiting',
      blockingReason: 'dependency',
      blockedBy: ['LIB1'],
    });

    const paused = await p.operator('A1', 'pause');
    expect(paused).toMatchObject({
      status: 200,
      body: { taskId: 'A1', pauseSource: 'operator', pausedAt: expect.any(String), changed: true },
    });
    expect(await p.written(OpenqEvent.PipelineTaskPaused, 'A1')).toEqual([
      { taskId: 'A1', source: 'operator' },
    ]);
    expect(await p.written(OpenqEvent.PipelineTaskAdmitted, 'A2')).toEqual([]);
    expect(await p.task('A1', 'app')).toMatchObject({ state: 'paused', blockingReason: 'none' });
    expect(await p.task('A2', 'app')).toMatchObject({
      state: 'waiting',
      blockingReason: 'dependency',
      blockedBy: ['LIB1'],
    });
    await p.expectQueueAgrees();

    // The dependency, in another repo, is done: the waiting task enters.
    await p.status('LIB1', { status: 'done' });
    await p.published(OpenqEvent.PipelineTaskAdmitted, 'A2');
    expect(await p.task('A2', 'app')).toMatchObject({ state: 'active', stage: 'analysis' });
    await p.expectQueueAgrees();
    p.expectEventsValid();
  });

  it('a freeze still blocks while the first is paused; it fails closed; lifting it admits on the sweep', async () => {
    const p = new PipelineDriver(stack, 'pipe-freeze');
    await p.register('F1', 'FR', 1);
    await p.published(OpenqEvent.PipelineTaskAdmitted, 'F1');
    await p.gatesSql(
      `INSERT INTO pipeline_repo_freeze (project_id, repo, frozen_by, reason) VALUES ($1, 'FR', 'alice', 'release')`,
      [p.projectId],
    );
    await p.register('F2', 'FR', 2);
    // Precedence: freeze > active task.
    expect(await p.queue('FR')).toMatchObject({ frozenRepos: ['FR'], total: 2 });
    expect(await p.task('F2', 'FR')).toMatchObject({ state: 'waiting', blockingReason: 'freeze' });

    expect(await p.operator('F1', 'pause')).toMatchObject({ status: 200 });
    expect(await p.written(OpenqEvent.PipelineTaskAdmitted, 'F2')).toEqual([]);
    expect(await p.task('F2', 'FR')).toMatchObject({ state: 'waiting', blockingReason: 'freeze' });
    await p.expectQueueAgrees('FR');

    // The freeze table cannot be read: every repo counts as frozen, for admission and the queue.
    await p.gatesSql(`DELETE FROM pipeline_repo_freeze WHERE project_id = $1`, [p.projectId]);
    await p.gatesSql(`ALTER TABLE pipeline_repo_freeze RENAME TO pipeline_repo_freeze_gone`);
    try {
      await p.register('G1', 'other', 1);
      expect(await p.written(OpenqEvent.PipelineTaskAdmitted, 'G1')).toEqual([]);
      expect(await p.written(OpenqEvent.PipelineTaskAdmitted, 'F2')).toEqual([]);
      expect(await p.queue()).toMatchObject({ frozenRepos: ['FR', 'other'] });
      expect(await p.task('G1')).toMatchObject({ state: 'waiting', blockingReason: 'freeze' });
      expect(await p.task('F2')).toMatchObject({ state: 'waiting', blockingReason: 'freeze' });
    } finally {
      await p.gatesSql(`ALTER TABLE pipeline_repo_freeze_gone RENAME TO pipeline_repo_freeze`);
    }

    // Readable again and empty: nothing announces it, the sweep admits what waited.
    expect(await p.task('F2', 'FR')).toMatchObject({ state: 'waiting', blockingReason: 'none' });
    await stack.service('gates').app.get(AdmissionSweep).sweep();
    expect(await p.written(OpenqEvent.PipelineTaskAdmitted, 'F2')).toHaveLength(1);
    expect(await p.written(OpenqEvent.PipelineTaskAdmitted, 'G1')).toHaveLength(1);
    await p.published(OpenqEvent.PipelineTaskAdmitted, 'F2');
    await p.expectQueueAgrees();
    p.expectEventsValid();
  });
});

describe('pipeline: one task of a repo at a time, whatever the arrival order', () => {
  it('a task registered after a later-ordered one entered waits for it', async () => {
    const p = new PipelineDriver(stack, 'pipe-late');
    await p.register('L2', 'late', 2);
    await p.published(OpenqEvent.PipelineTaskAdmitted, 'L2');
    await p.register('L1', 'late', 1);
    expect(await p.written(OpenqEvent.PipelineTaskAdmitted, 'L1')).toEqual([]);
    expect(await p.queue('late')).toMatchObject({
      tasks: [
        { taskId: 'L1', state: 'waiting', blockingReason: 'active_task', blockedBy: ['L2'] },
        { taskId: 'L2', state: 'active' },
      ],
    });
    await p.status('L2', { status: 'done' });
    await p.published(OpenqEvent.PipelineTaskAdmitted, 'L1');
    await p.expectQueueAgrees('late');
  });

  it('tasks created together: exactly one of the repo enters', async () => {
    const p = new PipelineDriver(stack, 'pipe-burst');
    const created = await Promise.all(
      ['B1', 'B2', 'B3', 'B4', 'B5'].map((id, i) => p.createTask(id, 'burst', i + 1)),
    );
    for (const e of created) await p.processed(e);
    const admitted = await p.gatesSql(
      `SELECT envelope->'data'->>'taskId' AS task FROM outbox WHERE envelope->>'type' = 'pipeline.task_admitted' AND envelope->>'projectId' = $1`,
      [p.projectId],
    );
    expect(admitted).toHaveLength(1);
    expect((await p.queue('burst')).tasks.filter((t) => t.state === 'active')).toHaveLength(1);
    await p.expectQueueAgrees('burst');
  });
});

describe('pipeline: operator pause / resume routes', () => {
  it('pauses and resumes with source operator, admits the next task on pause, refuses what does not apply', async () => {
    const p = new PipelineDriver(stack, 'pipe-ops');
    await p.register('O1', 'ops', 1);
    await p.register('O2', 'ops', 2);
    await p.published(OpenqEvent.PipelineTaskAdmitted, 'O1');

    expect(await p.operator('O1', 'pause', 'developer')).toMatchObject({
      status: 403,
      body: { reason: 'papel_insuficiente' },
    });
    expect(await p.operator('nope', 'pause')).toMatchObject({
      status: 404,
      body: { reason: 'tarefa_nao_encontrada' },
    });
    expect(await p.operator('O1', 'resume')).toMatchObject({
      status: 409,
      body: { reason: 'tarefa_nao_pausada' },
    });

    expect(await p.operator('O1', 'pause')).toMatchObject({ status: 200, body: { pauseSource: 'operator' } });
    await p.published(OpenqEvent.PipelineTaskAdmitted, 'O2');
    expect(await p.operator('O1', 'pause')).toMatchObject({
      status: 409,
      body: { reason: 'tarefa_ja_pausada' },
    });
    await p.expectQueueAgrees('ops');

    const resumed = await p.operator('O1', 'resume');
    expect(resumed).toMatchObject({
      status: 200,
      body: { taskId: 'O1', pausedAt: null, pauseSource: null, changed: true },
    });
    const [unpaused] = await p.published(OpenqEvent.PipelineTaskUnpaused, 'O1');
    expect(unpaused!.data).toEqual({ taskId: 'O1', source: 'operator' });
    expect(await p.task('O1', 'ops')).toMatchObject({ state: 'active', pausedAt: null });
    // Resume never relaunches the analyst by itself (it was never stopped here).
    expect(await p.written(OpenqEvent.PipelineAnalystRelaunch, 'O1')).toEqual([]);

    await p.processed(await p.status('O2', { status: 'cancelled' }));
    expect(await p.operator('O2', 'pause')).toMatchObject({
      status: 409,
      body: { reason: 'tarefa_encerrada' },
    });
    await p.expectQueueAgrees('ops');
    p.expectEventsValid();
  });
});
