import type { EntityManager } from 'typeorm';
import { isRefusal, newId, type Refusal } from '@openq/contracts';
import type { OutboxWriter } from '@openq/messaging';
import { answerOutcome, type AnswerCommand, type AnswerOutcome } from '../../domain/question';
import { QuestionLog } from '../../question-log';
import { questionTransaction } from '../../question-transaction';

export type AnswerDecision = AnswerOutcome | Refusal;

/**
 * The one answering core behind both doors (click and agent). Answers to one question are
 * serialised by a transaction lock, and the log's unique index on (question, answered) is the
 * guarantee behind it: the question decider's `question.answered` and `decision.recorded` are
 * appended through the decider transaction in the caller's transaction, together with their
 * outbox rows — both or neither.
 */
export async function answerQuestion(
  manager: EntityManager,
  outbox: OutboxWriter,
  projectId: string,
  questionId: string,
  command: AnswerCommand,
  now: Date,
): Promise<AnswerDecision> {
  const log = new QuestionLog(manager);
  await log.lockQuestion(questionId);
  const current = await log.load(questionId);
  const decided = await questionTransaction(manager, outbox, log).decide(
    { type: 'answer', projectId, decisionEventId: newId(), answer: command },
    current,
    now,
  );
  if (isRefusal(decided)) return decided;
  return answerOutcome(current, decided.events);
}
