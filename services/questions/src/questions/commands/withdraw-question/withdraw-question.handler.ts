import type { EntityManager } from 'typeorm';
import { isRefusal, type AskerRole, type QuestionWithdrawn, type Refusal } from '@openq/contracts';
import type { OutboxWriter } from '@openq/messaging';
import { withdrawOutcome, type WithdrawCommand } from '../../domain/question';
import { lockedBatch, type QuestionBatch } from '../../questions-transaction';
import { withdrawalToWire } from '../../store/question-log.store';

/**
 * §11.5 a withdrawal as the doors send it, in the wire's words: the session author's click, or an
 * asker's tool call (`viaAgente`, its session); always with a `motivo`.
 */
export type WithdrawInput = (
  { by: 'user'; userId: string } | { by: 'agent'; viaAgente: AskerRole; sessionId?: string | null }
) & { motivo: string };

/** What an accepted withdrawal did, in the wire's words: withdrawn now, or an earlier withdrawal stands. */
export interface WithdrawResult {
  kind: 'withdrawn' | 'already_withdrawn';
  withdrawn: QuestionWithdrawn;
}

export type WithdrawDecision = WithdrawResult | Refusal;

/** The domain's command for a withdrawal the doors sent. */
function withdrawCommandOf(input: WithdrawInput): WithdrawCommand {
  if (input.by === 'user') return { by: 'user', userId: input.userId, reason: input.motivo };
  return {
    by: 'agent',
    role: input.viaAgente,
    ...(input.sessionId !== undefined ? { sessionId: input.sessionId } : {}),
    reason: input.motivo,
  };
}

/** One withdrawal to record (§11.5): the session author's click or an asker's tool call, and its outbox. */
export interface WithdrawRequest {
  projectId: string;
  questionId: string;
  outbox: OutboxWriter;
  withdrawal: WithdrawInput;
}

/** Decides one withdrawal in the batch, on the state the batch's earlier commands left. */
export function decideWithdrawal(
  batch: QuestionBatch,
  request: WithdrawRequest,
  now: Date,
): WithdrawDecision {
  const { projectId, questionId, outbox, withdrawal } = request;
  const before = batch.stateOf(questionId);
  const entry = batch.decide(
    questionId,
    { type: 'withdraw', projectId, withdrawal: withdrawCommandOf(withdrawal) },
    now,
    outbox,
  );
  if (isRefusal(entry)) return entry;
  const { kind, withdrawn } = withdrawOutcome(before, entry.decided.events);
  return { kind, withdrawn: withdrawalToWire(withdrawn) };
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
  withdrawal: WithdrawInput,
  now: Date,
): Promise<WithdrawDecision> {
  const { batch } = await lockedBatch(manager, outbox, [questionId]);
  const decision = decideWithdrawal(batch, { projectId, questionId, outbox, withdrawal }, now);
  await batch.commit();
  return decision;
}
