import { OpenqEvent, STREAMS } from '@openq/contracts';
import { durableName } from '@openq/messaging';
import { waitFor } from '@openq/testing';
import { startQuestions } from '../../services/questions/src/questions-service';
import { AFTER, analystPackage, PipelineDriver, Q_AT } from '../support/pipeline';
import { Stack } from '../support/stack';

// SPEC §7 never-raise, and the questions service as a dependency that may be away.
let stack: Stack;

beforeAll(async () => {
  // The questions service is started later, by the first test.
  stack = await Stack.start({ services: ['gates'] });
});
afterAll(() => stack.stop());

async function gatesMetrics(): Promise<string> {
  const address = stack.service('gates').app.getHttpServer().address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
}

describe('pipeline when things fail', () => {
  it('keeps retrying an analysis while the questions service is away, then declares once it answers', async () => {
    const p = new PipelineDriver(stack, 'pipe-down');
    await p.register('D1', 'down', 1);
    await p.register('D2', 'down', 2);
    await p.published(OpenqEvent.PipelineTaskAdmitted, 'D1');
    await p.finishAnalysis('D1', 'down', {
      package: analystPackage(Q_AT, null),
      questions: [{ pergunta: 'Which market?' }],
    });

    // Past the transport's give-up count for ordinary handler failures (5): still retried, not dead-lettered.
    const jsm = await stack.nc.jetstreamManager();
    await waitFor(
      async () =>
        (await jsm.consumers.info(STREAMS.agentEvents.name, durableName('gates', 'agent.analysis.finished')))
          .delivered.consumer_seq >= 6,
      {
        timeoutMs: 30_000,
        what: 'six deliveries of the analysis',
      },
    );
    expect(await p.gatesSql(`SELECT reason FROM dead_letter`)).toEqual([]);
    expect(await p.written(OpenqEvent.PipelineNeedsInput, 'D1')).toEqual([]);
    expect(await p.written(OpenqEvent.PipelineTaskPaused, 'D1')).toEqual([]);
    expect((await p.task('D1', 'down')).state).toBe('active');

    stack.services.set('questions', await startQuestions(stack.config, { embedded: true }));
    const [needsInput] = await p.published(OpenqEvent.PipelineNeedsInput, 'D1', 1);
    expect(needsInput!.data.questionIds).toHaveLength(1);
    await p.published(OpenqEvent.PipelineTaskPaused, 'D1');
    await p.published(OpenqEvent.PipelineTaskAdmitted, 'D2');
    const listed = await stack.http('GET', `/projects/${p.projectId}/open-questions`, {
      token: stack.token('ana', p.projectId, 'viewer'),
    });
    expect(listed.body).toMatchObject({
      total: 1,
      items: [{ questionId: (needsInput!.data.questionIds as string[])[0], autor: 'analyst' }],
    });
    await p.expectQueueAgrees('down');
  });

  it('a failing questions predicate degrades to "not active", counted on /metrics', async () => {
    const p = new PipelineDriver(stack, 'pipe-degraded');
    expect(await gatesMetrics()).toMatch(/^openq_pipeline_questions_predicate_failures_total 0$/m);
    await p.register('X1', 'x', 1);
    await p.published(OpenqEvent.PipelineTaskAdmitted, 'X1');
    // 30 February passes the wire check but is no instant: the predicate cannot decide.
    const pkg = { ...analystPackage('2026-02-30T10:00:00Z', AFTER) };
    await p.finishAnalysis('X1', 'x', { package: pkg, questions: [{ pergunta: 'Which market?' }] });
    await p.published(OpenqEvent.PipelineInReview, 'X1');
    expect(await p.written(OpenqEvent.PipelineNeedsInput, 'X1')).toEqual([]);
    expect(await gatesMetrics()).toMatch(/^openq_pipeline_questions_predicate_failures_total 1$/m);
    p.expectEventsValid();
  });
});
