import type { EntityManager } from 'typeorm';
import { isRefusal, type Refusal } from '@openq/contracts';
import type { OutboxWriter } from '@openq/messaging';
import { withdrawOutcome, type WithdrawCommand, type WithdrawOutcome } from '../../domain/question';
import { QuestionLog } from '../../question-log';
import { questionTransaction } from '../../question-transaction';

/**
 * §11.5 withdraws a question, by either door (the session author's click, an asker's
 * `withdraw_open_question`), through the questions slice of the decider kit: under the question's
 * lock (the one answers take, so an answer and a withdrawal never both stand; the log's
 * `question_log_one_closing` index is the backstop), load, decide, and append + project + queue
 * `question.withdrawn` in the caller's transaction. An already withdrawn question writes nothing.
 */
export async function withdrawQuestion(
  manager: EntityManager,
  outbox: OutboxWriter,
  projectId: string,
  questionId: string,
  withdrawal: WithdrawCommand,
  now: Date,
): Promise<WithdrawOutcome | Refusal> {
  const log = new QuestionLog(manager);
  await log.lockQuestion(questionId);
  const current = await log.load(questionId);
  const decided = await questionTransaction(manager, outbox, log).decide(
    { type: 'withdraw', projectId, withdrawal },
    current,
    now,
  );
  if (isRefusal(decided)) return decided;
  return withdrawOutcome(current, decided.events);
}
