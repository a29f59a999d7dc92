import type { EntityManager } from 'typeorm';
import { isRefusal, type Refusal } from '@openq/contracts';
import type { OutboxWriter } from '@openq/messaging';
import { withdrawOutcome, type WithdrawCommand, type WithdrawOutcome } from '../../domain/question';
import { lockedBatch, type QuestionBatch } from '../../questions-transaction';

export type WithdrawDecision = WithdrawOutcome | Refusal;

/** One withdrawal to record (§11.5): the session author's click or an asker's tool call, and its outbox. */
export interface WithdrawRequest {
  projectId: string;
  questionId: string;
  outbox: OutboxWriter;
  withdrawal: WithdrawCommand;
}

/** Decides one withdrawal in the batch, on the state the batch's earlier commands left. */
export function decideWithdrawal(
  batch: QuestionBatch,
  request: WithdrawRequest,
  now: Date,
): WithdrawDecision {
  const { projectId, questionId, outbox, withdrawal } = request;
  const before = batch.stateOf(questionId);
  const entry = batch.decide(questionId, { type: 'withdraw', projectId, withdrawal }, now, outbox);
  return isRefusal(entry) ? entry : withdrawOutcome(before, entry.decided.events);
}

/**
 * §11.5 withdraws a question, by either door (the session author's click, an asker's
 * `withdraw_open_question`), in the caller's transaction: under the question's lock (the one
 * answers take, so an answer and a withdrawal never both stand; the log's
 * `question_log_one_closing` index is the backstop), load, decide, and append + project + queue
 * `question.withdrawn` through the decider kit. An already withdrawn question writes nothing.
 * Clicks arriving together are committed in groups with the answers (`QuestionGroups`,
 * `closeQuestions`).
 */
export async function withdrawQuestion(
  manager: EntityManager,
  outbox: OutboxWriter,
  projectId: string,
  questionId: string,
  withdrawal: WithdrawCommand,
  now: Date,
): Promise<WithdrawDecision> {
  const { batch } = await lockedBatch(manager, outbox, [questionId]);
  const decision = decideWithdrawal(batch, { projectId, questionId, outbox, withdrawal }, now);
  await batch.commit();
  return decision;
}
