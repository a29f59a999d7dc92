import { OpenqEvent } from '@openq/contracts';
import { AFTER, analystPackage, PipelineDriver, Q_AT } from '../support/pipeline';
import { Stack } from '../support/stack';

// SPEC §7 flags: the questions gate off is exactly the previous behaviour (files first, no park).
let stack: Stack;

beforeAll(async () => {
  stack = await Stack.start({
    services: ['questions', 'gates'],
    env: { ANALYST_QUESTIONS_GATE_ENABLED: 'false' },
  });
});
afterAll(() => stack.stop());

describe('pipeline with ANALYST_QUESTIONS_GATE_ENABLED=false', () => {
  it('files ready win over live questions: In Review (+ auto-approve), no Needs Input, no autopause', async () => {
    const p = new PipelineDriver(stack, 'pipe-off');
    await p.register('T1', 'R', 1);
    await p.register('T2', 'R', 2);
    await p.published(OpenqEvent.PipelineTaskAdmitted, 'T1');

    // With the gate on, this package would be Needs Input: the questions file is newer than two deliverables.
    const pkg = { ...analystPackage(Q_AT, AFTER), '01-brd.md': '2026-06-17T08:00:00Z', '02-trz.md': Q_AT };
    const finished = await p.finishAnalysis('T1', 'R', {
      package: pkg,
      questions: [{ pergunta: 'Which market?' }],
      labels: ['auto-approve'],
    });
    await p.published(OpenqEvent.PipelineInReview, 'T1');
    const [advanced] = await p.published(OpenqEvent.PipelineAdvanced, 'T1');
    expect(advanced!.data).toEqual({ taskId: 'T1', to: 'architecture' });
    await p.processed(finished);

    expect(await p.written(OpenqEvent.PipelineNeedsInput, 'T1')).toEqual([]);
    expect(await p.written(OpenqEvent.PipelineTaskPaused, 'T1')).toEqual([]);
    expect(await p.written(OpenqEvent.PipelineTaskAdmitted, 'T2')).toEqual([]);
    const open = await stack.http('GET', `/projects/${p.projectId}/open-questions/count`, {
      token: stack.token('ana', p.projectId, 'viewer'),
    });
    expect(open).toMatchObject({ status: 200, body: { open: 0 } });

    expect(await p.task('T1', 'R')).toMatchObject({ stage: 'architecture', state: 'active', pausedAt: null });
    expect(await p.task('T2', 'R')).toMatchObject({
      state: 'waiting',
      blockingReason: 'active_task',
      blockedBy: ['T1'],
    });
    await p.expectQueueAgrees('R');

    // Incomplete package: the previous behaviour, with what is missing.
    await p.register('U1', 'U', 1);
    await p.published(OpenqEvent.PipelineTaskAdmitted, 'U1');
    await p.finishAnalysis('U1', 'U', {
      package: { ...analystPackage(Q_AT, AFTER), '03-acceptance-criteria.md': null },
    });
    const [incomplete] = await p.published(OpenqEvent.PipelineAnalysisIncomplete, 'U1');
    expect(incomplete!.data).toEqual({ taskId: 'U1', repo: 'U', missing: ['03-acceptance-criteria.md'] });
    p.expectEventsValid();
  });
});
