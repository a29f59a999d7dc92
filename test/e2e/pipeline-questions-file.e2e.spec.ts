import { OpenqEvent, PERGUNTA_MAX_LENGTH, SUGESTAO_MAX_LENGTH } from '@openq/contracts';
import { AgentEventPublisher, renderQuestionsFile, validateQuestionsFile } from '@openq/agent-sdk';
import { waitFor } from '@openq/testing';
import { analystPackage, PipelineDriver, Q_AT } from '../support/pipeline';
import { Stack } from '../support/stack';

// ADR-0053 §1 end to end: the engine checks the analyst's 01-questions.md with the SDK, publishes
// what the check returned, and the pipeline puts exactly those questions in front of the user —
// at the contract's ceilings too, where the two sides would first disagree.
let stack: Stack;

beforeAll(async () => {
  stack = await Stack.start({ services: ['questions', 'gates'] });
});
afterAll(() => stack.stop());

it('a questions file made from the template reaches the user as the SDK parsed it', async () => {
  const p = new PipelineDriver(stack, 'pipe-qfile');
  await p.register('T1', 'R', 1);
  await p.published(OpenqEvent.PipelineTaskAdmitted, 'T1');

  // What the analyst writes: the template, filled in (a long question over several lines, one at
  // the ceilings, one without a suggestion).
  const file = renderQuestionsFile([
    {
      pergunta: 'Which markets come first?\nThe brief names Brazil and Portugal but one date.',
      sugestao: 'Brazil',
    },
    { pergunta: '😀'.repeat(PERGUNTA_MAX_LENGTH), sugestao: 's'.repeat(SUGESTAO_MAX_LENGTH) },
    { pergunta: 'Which tax regime applies?' },
  ]);
  const checked = validateQuestionsFile(file);
  if (!checked.ok) throw new Error(JSON.stringify(checked.errors));

  await new AgentEventPublisher(stack.nc).analysisFinished(p.projectId, {
    taskId: 'T1',
    repo: 'R',
    labels: [],
    sessionId: 's-T1',
    sessionAuthorId: 'ana',
    package: analystPackage(Q_AT, null),
    questions: checked.questions,
  });

  const [needsInput] = await p.published(OpenqEvent.PipelineNeedsInput, 'T1');
  expect(needsInput!.data.questionIds).toHaveLength(3);
  const token = stack.token('ana', p.projectId, 'viewer');
  const listed = await waitFor(
    async () => {
      const res = await stack.http('GET', `/projects/${p.projectId}/open-questions?status=all`, { token });
      const items = res.body.items as { questionId: string; pergunta: string; sugestao: string | null }[];
      return res.status === 200 && items.length === 3 ? items : false;
    },
    { what: 'the three analyst questions listed' },
  );
  expect(listed.map((q) => q.questionId).sort()).toEqual(
    [...(needsInput!.data.questionIds as string[])].sort(),
  );
  const asked = listed.map(({ pergunta, sugestao }) => ({ pergunta, sugestao: sugestao ?? null }));
  expect(asked).toHaveLength(checked.questions.length);
  expect(asked).toEqual(expect.arrayContaining(checked.questions));
});
