import { deciderSpec } from '@openq/testing/decider';
import { renderQuestionsFile, validateQuestionsFile } from '@openq/agent-sdk';
import { DEFAULT_ANALYSIS_FLAGS } from './analysis-outcome';
import { pipelineTask, type PipelineCommand, type PipelineTask } from './pipeline-task';

// ADR-0053 §1: what the engine's check (the SDK's validateQuestionsFile) accepts is what the
// pipeline declares, unchanged: both shape a question with the contracts' normalizeAnalystQuestion.
const at = new Date(Date.UTC(2026, 5, 17));
const { given, history } = deciderSpec(pipelineTask, () => at);

function inAnalysis(): PipelineTask {
  const commands: PipelineCommand[] = [
    {
      type: 'register',
      data: { projectId: 'p1', taskId: 'T1', repo: 'api', order: 1, deps: [], labels: [] },
    },
    {
      type: 'admit',
      data: { tasks: [], freezes: { repos: [] }, flags: { serialGatePauseEnabled: true } },
    },
  ];
  return given(history(commands)).state!;
}

it('declares the questions of a file the SDK validated exactly as the SDK returned them', () => {
  const file = renderQuestionsFile([
    { pergunta: '  Which market first?\nThe brief names two.  ', sugestao: ' Brazil ' },
    { pergunta: 'Which tax regime applies?', sugestao: '  ' },
  ]);
  const checked = validateQuestionsFile(file);
  if (!checked.ok) throw new Error(JSON.stringify(checked.errors));

  const { state } = given([], inAnalysis()).when(
    {
      type: 'recordAnalysis',
      data: {
        report: {
          repo: 'api',
          labels: [],
          sessionId: 's1',
          sessionAuthorId: 'ana',
          package: { '01-questions.md': '2026-06-17T10:00:00Z' },
          questions: checked.questions,
        },
        flags: DEFAULT_ANALYSIS_FLAGS,
      },
    },
    at,
  );
  const request = state?.pendingQuestionRequest;
  expect(request?.declare.map(({ pergunta, sugestao }) => ({ pergunta, sugestao }))).toEqual(
    checked.questions,
  );
  expect(checked.questions).toEqual([
    { pergunta: 'Which market first?\nThe brief names two.', sugestao: 'Brazil' },
    { pergunta: 'Which tax regime applies?', sugestao: null },
  ]);
});
