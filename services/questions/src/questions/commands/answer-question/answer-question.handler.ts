import type { EntityManager } from 'typeorm';
import type { OutboxWriter } from '@openq/messaging';
import type { AnswerCommand } from '../../domain/question';
import { closeQuestions, type AnswerDecision, type AnswerRequest } from '../close-questions';

export type { AnswerDecision, AnswerRequest } from '../close-questions';

/**
 * One answer in the caller's transaction (an agent's event through the inbox): a group of one of
 * the core behind answers and withdrawals (`closeQuestions`: the question's lock, its log, the
 * decider kit, the `Idempotency-Key` of a click).
 */
export async function answerQuestion(
  manager: EntityManager,
  outbox: OutboxWriter,
  projectId: string,
  questionId: string,
  command: AnswerCommand,
  now: Date,
): Promise<AnswerDecision> {
  const request = { projectId, questionId, outbox, command } as AnswerRequest;
  const [decision] = await closeQuestions(manager, [request], now);
  return decision!;
}
