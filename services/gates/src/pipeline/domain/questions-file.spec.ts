import { isRefusal } from '@openq/contracts';
import { renderQuestionsFile, validateQuestionsFile } from '@openq/agent-sdk';
import { DEFAULT_ANALYSIS_FLAGS } from './analysis-outcome';
import {
  applyPipelineEvents,
  decidePipelineTask,
  type PipelineCommand,
  type PipelineTask,
} from './pipeline-task';

// ADR-0053 §1: what the engine's check (the SDK's validateQuestionsFile) accepts is what the
// pipeline declares, unchanged: both shape a question with the contracts' normalizeAnalystQuestion.
const at = new Date(Date.UTC(2026, 5, 17));

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
  return commands.reduce<PipelineTask | null>((state, command) => {
    const decision = decidePipelineTask(command, state, at);
    if (isRefusal(decision)) throw new Error(decision.reason);
    return applyPipelineEvents(state, decision);
  }, null)!;
}

it('declares the questions of a file the SDK validated exactly as the SDK returned them', () => {
  const file = renderQuestionsFile([
    { pergunta: '  Which market first?\nThe brief names two.  ', sugestao: ' Brazil ' },
    { pergunta: 'Which tax regime applies?', sugestao: '  ' },
  ]);
  const checked = validateQuestionsFile(file);
  if (!checked.ok) throw new Error(JSON.stringify(checked.errors));

  const decision = decidePipelineTask(
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
    inAnalysis(),
    at,
  );
  if (isRefusal(decision)) throw new Error(decision.reason);
  const request = applyPipelineEvents(inAnalysis(), decision)?.pendingQuestionRequest;
  expect(request?.declare.map(({ pergunta, sugestao }) => ({ pergunta, sugestao }))).toEqual(
    checked.questions,
  );
  expect(checked.questions).toEqual([
    { pergunta: 'Which market first?\nThe brief names two.', sugestao: 'Brazil' },
    { pergunta: 'Which tax regime applies?', sugestao: null },
  ]);
});
