import { Logger } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { decideAndFold, isRefusal, type AgentAnalysisFinishedDto } from '@openq/contracts';
import { RetryLaterError } from '@openq/messaging';
import { admitNext } from '../admit-next/admit-next.handler';
import { pipelineTask, type AnalystQuestionRequest, type PipelineTask } from '../../domain/pipeline-task';
import type { QuestionDeclarer } from '../../../gates/adapters/question-declarer';
import { questionDeclareRefusals, questionsPredicateFailures } from '../../pipeline.metrics';
import type { PipelineFlags } from '../../pipeline.flags';
import { PipelineTaskStore } from '../../store/pipeline-task.store';
import type { PipelineTransaction } from '../../pipeline-transaction';

const logger = new Logger('pipeline:analysis');

/**
 * What the analyst's declare calls gave, before the message's transaction: each question's id by
 * its key (`AnalystQuestionRequest.declare[].key`), null for one the questions service refused.
 */
export interface PreparedAnalysis {
  declared: Record<string, string | null>;
}

/**
 * Before the transaction (as a verdict's, issue #14): the analysis is decided once on the task as
 * it stands (read without a lock, the connection given back at once); if it asks questions, they
 * are declared now, so no pooled connection and no pipeline lock waits on the calls (up to the
 * RPC timeout). Declaring is idempotent (each question's key is its `toolCallId`), so this may run
 * again for the same message (a retry, a batch split) and gets the same questions back.
 */
export async function prepareAnalysis(
  manager: EntityManager,
  data: AgentAnalysisFinishedDto,
  questions: QuestionDeclarer,
  ctx: {
    projectId: string;
    correlationId: string;
    flags: PipelineFlags;
    now: Date;
    /** Whether the message was applied already (a redelivery): see below. */
    applied: () => Promise<boolean>;
  },
): Promise<PreparedAnalysis> {
  // The keys carry the task's run (its relaunch count): a redelivery of an analysis applied
  // before a relaunch would declare the new run's questions, which nothing would link. The
  // transaction acks such a message without effect, so nothing is declared for it here.
  if (await ctx.applied()) return { declared: {} };
  const stored = await new PipelineTaskStore(manager).load(ctx.projectId, data.taskId);
  if (!stored) return { declared: {} };
  const recorded = decideAndFold(
    pipelineTask,
    analysisCommand(stored.task, data, ctx.flags),
    stored.task,
    ctx.now,
  );
  const request = isRefusal(recorded) ? undefined : recorded.state?.pendingQuestionRequest;
  if (!request) return { declared: {} };
  return { declared: await declareAnalystQuestions(questions, ctx.projectId, request, ctx.correlationId) };
}

/**
 * `agent.analysis.finished`: active questions > files ready > incomplete package (ADR-0053).
 * On Needs Input the questions enter the log through the questions service (declared before the
 * transaction, `prepareAnalysis`: same keys on a retry, so the same question ids) and are linked
 * to the task before `pipeline.needs_input` names them; the auto-park lets the next task of the
 * repo in.
 */
export async function recordAnalysis(
  tx: PipelineTransaction,
  data: AgentAnalysisFinishedDto,
  prepared: PreparedAnalysis | undefined,
): Promise<void> {
  const stored = await tx.store.load(tx.projectId, data.taskId);
  if (!stored) {
    logger.warn(`project ${tx.projectId}: analysis of ${data.taskId}, not a pipeline task; ignored`);
    return;
  }
  const recorded = await tx.tasks.decideAccepted(
    analysisCommand(stored.task, data, tx.flags),
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
    const questionIds = declaredBefore(request, prepared);
    const answeredQuestionIds = await tx.store.linkQuestions(tx.projectId, data.taskId, questionIds, tx.now);
    await tx.tasks.decideAccepted(
      { type: 'questionsLinked', data: { questionIds, answeredQuestionIds } },
      recorded.state,
      tx.now,
    );
  }
  await admitNext(tx);
}

/** The analysis as a command of the task's decider: the same on the snapshot and under the lock. */
function analysisCommand(task: PipelineTask, data: AgentAnalysisFinishedDto, flags: PipelineFlags) {
  const report = {
    // The registered repo decides the questions-gate scope, as it decides the serial gate.
    repo: task.repo,
    labels: data.labels,
    sessionId: data.sessionId,
    sessionAuthorId: data.sessionAuthorId,
    package: data.package,
    questions: data.questions,
  };
  return { type: 'recordAnalysis' as const, data: { report, flags: flags.analysis } };
}

/**
 * The ids of the request's questions declared before the transaction, in order, without the
 * refused ones. The decision under the lock asks for the same keys unless the task changed in
 * between; the message is then retried, and its before-transaction step declares on the fresh state.
 */
function declaredBefore(request: AnalystQuestionRequest, prepared: PreparedAnalysis | undefined): string[] {
  const declared = prepared?.declared ?? {};
  const missing = request.declare.filter((q) => !(q.key in declared)).map((q) => q.key);
  if (missing.length > 0)
    throw new RetryLaterError(
      `analyst questions ${missing.join(', ')} were not declared before the transaction; retried`,
    );
  return request.declare.map((q) => declared[q.key]).filter((id): id is string => typeof id === 'string');
}

/**
 * Declares the analyst's questions in the question log. Each carries its stable key as
 * `toolCallId`, so a retried message gets the same question ids back. A refusal (4xx) will not
 * change on retry: that question is skipped, logged and counted.
 */
async function declareAnalystQuestions(
  declarer: QuestionDeclarer,
  projectId: string,
  request: AnalystQuestionRequest,
  correlationId: string,
): Promise<Record<string, string | null>> {
  const { sessionId, sessionAuthorId, role, origin, affects } = request;
  const questions = request.declare.map((q) => ({
    toolCallId: q.key,
    question: q.question,
    suggestion: q.suggestion,
  }));
  const refused = new Set<string>();
  const ids = await declarer.declare(
    projectId,
    { sessionId, sessionAuthorId, role, origin, affects, questions },
    {
      correlationId,
      onRefused: 'skip',
      skipped(toolCallId, { statusCode, reason, message }) {
        refused.add(toolCallId);
        questionDeclareRefusals.inc({ reason });
        logger.warn(`analyst question ${toolCallId} refused (${statusCode} ${reason}): ${message}; skipped`);
      },
    },
  );
  // `declare` gives the ids of the questions it opened, in order, the refused ones left out.
  const opened = ids[Symbol.iterator]();
  return Object.fromEntries(
    request.declare.map((q) => [q.key, refused.has(q.key) ? null : (opened.next().value as string)]),
  );
}
