import { deciderSpec } from '@openq/testing/decider';
import { renderQuestionsFile, validateQuestionsFile } from '@openq/agent-sdk';
import { DEFAULT_ANALYSIS_FLAGS } from './analysis-outcome';
import { pipelineTask } from './pipeline-task';
import { at, inAnalysis } from '../__fixtures__/pipeline-events';

// ADR-0053 §1: what the engine's check (the SDK's validateQuestionsFile) accepts is what the
// pipeline declares, unchanged: both shape a question with the contracts' normalizeAnalystQuestion.
const { given } = deciderSpec(pipelineTask, at);

it('declares the questions of a file the SDK validated exactly as the SDK returned them', () => {
  const file = renderQuestionsFile([
    { pergunta: '  Which market first?\nThe brief names two.  ', sugestao: ' Brazil ' },
    { pergunta: 'Which tax regime applies?', sugestao: '  ' },
  ]);
  const checked = validateQuestionsFile(file);
  if (!checked.ok) throw new Error(JSON.stringify(checked.errors));

  const { state } = given(inAnalysis()).when({
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
  });
  const request = state?.pendingQuestionRequest;
  expect(
    request?.declare.map(({ question, suggestion }) => ({ pergunta: question, sugestao: suggestion })),
  ).toEqual(checked.questions);
  expect(checked.questions).toEqual([
    { pergunta: 'Which market first?\nThe brief names two.', sugestao: 'Brazil' },
    { pergunta: 'Which tax regime applies?', sugestao: null },
  ]);
});
