import * as contracts from '@openq/contracts';
import {
  ANALYST_INSTRUCTION,
  QUESTIONS_FILE_MANIFEST_LINE,
  QUESTIONS_FILE_TEMPLATE,
  buildAgentEvent,
  normalizeAnalystQuestion,
  renderQuestionsFile,
  validateQuestionsFile,
} from './index';

describe("the analyst's kit (ADR-0053 §1)", () => {
  it("is the contracts' own definitions, not copies: the engine and the pipeline run one parser", () => {
    expect(validateQuestionsFile).toBe(contracts.validateQuestionsFile);
    expect(normalizeAnalystQuestion).toBe(contracts.normalizeAnalystQuestion);
    expect(renderQuestionsFile).toBe(contracts.renderQuestionsFile);
    expect(ANALYST_INSTRUCTION).toBe(contracts.ANALYST_INSTRUCTION);
    expect(QUESTIONS_FILE_TEMPLATE).toBe(contracts.QUESTIONS_FILE_TEMPLATE);
    expect(QUESTIONS_FILE_MANIFEST_LINE).toBe(contracts.QUESTIONS_FILE_MANIFEST_LINE);
  });

  it("the engine's path: file → validateQuestionsFile → agent.analysis.finished that the contract accepts", () => {
    const file = renderQuestionsFile([{ pergunta: 'Which market first?', sugestao: 'Brazil' }]);
    const checked = validateQuestionsFile(file);
    if (!checked.ok) throw new Error(JSON.stringify(checked.errors));
    const envelope = buildAgentEvent(contracts.AgentEvent.AnalysisFinished, 'p1', {
      taskId: 'T1',
      repo: 'api',
      labels: [],
      sessionId: 's1',
      sessionAuthorId: 'ana',
      package: { [contracts.ANALYST_QUESTIONS_FILE]: '2026-06-17T10:00:00Z' },
      questions: checked.questions,
    });
    expect(envelope.data.questions).toEqual([{ pergunta: 'Which market first?', sugestao: 'Brazil' }]);
  });

  it('a refused file comes back as errors with reasons and lines, nothing to publish', () => {
    expect(validateQuestionsFile(`${QUESTIONS_FILE_TEMPLATE}\nWhich market first?\n`)).toEqual({
      ok: false,
      errors: [
        { line: 1, reason: 'sem_perguntas', message: expect.any(String) },
        {
          line: QUESTIONS_FILE_TEMPLATE.split('\n').length + 1, // the template's lines, a blank one, then the text
          reason: 'texto_fora_de_pergunta',
          message: expect.any(String),
        },
      ],
    });
  });
});
