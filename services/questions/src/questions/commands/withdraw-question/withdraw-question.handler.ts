import type { EntityManager } from 'typeorm';
import type { OutboxWriter } from '@openq/messaging';
import type { WithdrawCommand } from '../../domain/question';
import { closeQuestions, type WithdrawDecision } from '../close-questions';

/**
 * §11.5 withdraws a question, by either door (the session author's click, an asker's
 * `withdraw_open_question`), in the caller's transaction: a group of one of the core behind
 * answers and withdrawals (`closeQuestions`) — under the question's lock (the one answers take,
 * so an answer and a withdrawal never both stand; the log's `question_log_one_closing` index is
 * the backstop), load, decide, and append + project + queue `question.withdrawn` through the
 * decider kit. An already withdrawn question writes nothing. Clicks arriving together are
 * committed in groups with the answers (`QuestionGroups`).
 */
export async function withdrawQuestion(
  manager: EntityManager,
  outbox: OutboxWriter,
  projectId: string,
  questionId: string,
  withdrawal: WithdrawCommand,
  now: Date,
): Promise<WithdrawDecision> {
  const [decision] = await closeQuestions(manager, [{ projectId, questionId, outbox, withdrawal }], now);
  return decision!;
}
