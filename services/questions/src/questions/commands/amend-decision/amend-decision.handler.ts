import type { EntityManager } from 'typeorm';
import type { OutboxWriter } from '@openq/messaging';
import type { AmendCommand } from '../../domain/question';
import { closeQuestions, type AmendDecision } from '../close-questions';

export type { AmendDecision, AmendRequest } from '../close-questions';
export { amendInstant } from '../close-questions';

/**
 * §11.5 the session author supersedes the decision an agent recorded, in the caller's
 * transaction: a group of one of the core behind answers, withdrawals and amendments
 * (`closeQuestions`) — under the question's lock (the one answers and withdrawals take), load,
 * decide, and append + project + queue the new `decision.recorded` and `decision.superseded`
 * through the decider kit. The same amendment again writes nothing. Clicks arriving together are
 * committed in groups with the answers (`QuestionGroups`).
 */
export async function amendDecision(
  manager: EntityManager,
  outbox: OutboxWriter,
  projectId: string,
  questionId: string,
  amendment: AmendCommand,
  now: Date,
): Promise<AmendDecision> {
  const [decision] = await closeQuestions(manager, [{ projectId, questionId, outbox, amendment }], now);
  return decision!;
}
