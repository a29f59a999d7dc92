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
    amendInstant(now, current?.answered?.answeredAt ?? null),
  );
  if (isRefusal(decided)) return decided;
  return amendOutcome(current, decided.events);
}

/**
 * [openq] The instant of an amendment: now, but never at or before the answer it supersedes (a
 * replica's clock behind the one that recorded the answer), so the new decision is the newest one
 * by `decidedAt` (the context service's "one per question, newest wins") whatever the clocks did.
 */
export function amendInstant(now: Date, answeredAt: string | null): Date {
  const answered = answeredAt === null ? Number.NaN : Date.parse(answeredAt);
  return Number.isNaN(answered) || now.getTime() > answered ? now : new Date(answered + 1);
}
