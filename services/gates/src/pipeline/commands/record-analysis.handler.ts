import { Logger } from '@nestjs/common';
import type { AgentAnalysisFinishedDto } from '@openq/contracts';
import { admitNext } from '../admission/admit-next';
import type { AnalystQuestionRequest } from '../domain/pipeline-task';
import type { QuestionDeclarer } from '../../question-declarer';
import { questionDeclareRefusals, questionsPredicateFailures } from '../pipeline.metrics';
import type { PipelineTransaction } from '../pipeline-transaction';

const logger = new Logger('pipeline:analysis');

/**
 * `agent.analysis.finished`: active questions > files ready > incomplete package (ADR-0053).
 * On Needs Input the questions enter the log through the questions service (same keys on a
 * retry, so the same question ids) and are linked to the task before `pipeline.needs_input`
 * names them; the auto-park lets the next task of the repo in.
 */
export async function recordAnalysis(
  tx: PipelineTransaction,
  data: AgentAnalysisFinishedDto,
  questions: QuestionDeclarer,
  correlationId: string,
): Promise<void> {
  const stored = await tx.store.load(tx.projectId, data.taskId);
  if (!stored) {
    logger.warn(`project ${tx.projectId}: analysis of ${data.taskId}, not a pipeline task; ignored`);
    return;
  }
  const report = {
    // The registered repo decides the questions-gate scope, as it decides the serial gate.
    repo: stored.task.repo,
    labels: data.labels,
    sessionId: data.sessionId,
    sessionAuthorId: data.sessionAuthorId,
    package: data.package,
    questions: data.questions,
  };
  const recorded = await tx.tasks.decideAccepted(
    { type: 'recordAnalysis', data: { report, flags: tx.flags.analysis } },
    stored.task,
    tx.now,
  );
  for (const event of recorded.events) {
    if (event.type === 'pipeline.analysis_recorded' && event.data.questionsCheckError !== undefined) {
      questionsPredicateFailures.inc();
      logger.warn(
        `project ${tx.projectId} task ${data.taskId}: questions predicate failed, taken as not active: ${event.data.questionsCheckError}`,
      );
    }
  }
  const request = recorded.state?.pendingQuestionRequest;
  if (recorded.state && request) {
    const questionIds = await declareAnalystQuestions(questions, tx.projectId, request, correlationId);
    const answeredQuestionIds = await tx.store.linkQuestions(tx.projectId, data.taskId, questionIds, tx.now);
    await tx.tasks.decideAccepted(
      { type: 'questionsLinked', data: { questionIds, answeredQuestionIds } },
      recorded.state,
      tx.now,
    );
  }
  await admitNext(tx);
}

/**
 * Declares the analyst's questions in the question log. Each carries its stable key as
 * `toolCallId`, so a retried message gets the same question ids back. A refusal (4xx) will not
 * change on retry: that question is skipped, logged and counted.
 */
function declareAnalystQuestions(
  declarer: QuestionDeclarer,
  projectId: string,
  request: AnalystQuestionRequest,
  correlationId: string,
): Promise<string[]> {
  const { sessionId, sessionAuthorId, autor, origin, afeta } = request;
  const questions = request.declare.map((q) => ({
    toolCallId: q.key,
    pergunta: q.pergunta,
    sugestao: q.sugestao,
  }));
  return declarer.declare(
    projectId,
    { sessionId, sessionAuthorId, autor, origin, afeta, questions },
    {
      correlationId,
      onRefused: 'skip',
      skipped(toolCallId, { statusCode, reason, message }) {
        questionDeclareRefusals.inc({ reason });
        logger.warn(`analyst question ${toolCallId} refused (${statusCode} ${reason}): ${message}; skipped`);
      },
    },
  );
}
