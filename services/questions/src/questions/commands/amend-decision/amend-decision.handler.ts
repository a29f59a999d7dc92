import type { EntityManager } from 'typeorm';
import { isRefusal, newId, type Refusal } from '@openq/contracts';
import type { OutboxWriter } from '@openq/messaging';
import { amendOutcome, type AmendCommand, type AmendOutcome } from '../../domain/question';
import { QuestionLog } from '../../question-log';
import { questionTransaction } from '../../question-transaction';

/**
 * §11.5 the session author supersedes the decision an agent recorded, through the questions slice
 * of the decider kit: under the question's lock (the one answers and withdrawals take), load,
 * decide, and append + project + queue the new `decision.recorded` and `decision.superseded` in the
 * caller's transaction. The same amendment again writes nothing.
 */
export async function amendDecision(
  manager: EntityManager,
  outbox: OutboxWriter,
  projectId: string,
  questionId: string,
  amendment: AmendCommand,
  now: Date,
): Promise<AmendOutcome | Refusal> {
  const log = new QuestionLog(manager);
  await log.lockQuestion(questionId);
  const current = await log.load(questionId);
  const decided = await questionTransaction(manager, outbox, log).decide(
    { type: 'amend', projectId, decisionEventId: newId(), amendment },
    current,
    now,
  );
  if (isRefusal(decided)) return decided;
  return amendOutcome(current, decided.events);
}
