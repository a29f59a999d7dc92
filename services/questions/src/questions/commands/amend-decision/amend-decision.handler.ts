import type { EntityManager } from 'typeorm';
import { isRefusal, newId, type DecisionSuperseded, type Refusal } from '@openq/contracts';
import type { OutboxWriter } from '@openq/messaging';
import { amendOutcome } from '../../domain/question';
import { lockedBatch, type QuestionBatch } from '../../questions-transaction';
import { supersessionToWire } from '../../store/question-log.store';

/** §11.5 an amendment as the click sends it, in the wire's words: the session author's `resposta`. */
export interface AmendInput {
  userId: string;
  resposta: string;
}

/** What an accepted amendment did, in the wire's words: superseded now, or the same amendment already stood. */
export interface AmendResult {
  kind: 'amended' | 'already_amended';
  superseded: DecisionSuperseded;
}

export type AmendDecision = AmendResult | Refusal;

/** One amendment to record (§11.5): the session author superseding an agent's decision, and its outbox. */
export interface AmendRequest {
  projectId: string;
  questionId: string;
  outbox: OutboxWriter;
  amendment: AmendInput;
}

/**
 * Decides one amendment in the batch, on the state the batch's earlier commands left: it sees an
 * answer an earlier request of the group recorded, and is dated never before it (`amendInstant`).
 */
export function decideAmendment(batch: QuestionBatch, request: AmendRequest, now: Date): AmendDecision {
  const { projectId, questionId, outbox, amendment } = request;
  const before = batch.stateOf(questionId);
  const entry = batch.decide(
    questionId,
    {
      type: 'amend',
      projectId,
      decisionEventId: newId(),
      amendment: { userId: amendment.userId, answer: amendment.resposta },
    },
    amendInstant(now, before?.answered?.answeredAt ?? null),
    outbox,
  );
  if (isRefusal(entry)) return entry;
  const { kind, superseded } = amendOutcome(before, entry.decided.events);
  return { kind, superseded: supersessionToWire(superseded) };
}

/**
 * §11.5 the session author supersedes the decision an agent recorded, in the caller's
 * transaction: under the question's lock (the one answers and withdrawals take), load, decide,
 * and append + project + queue the new `decision.recorded` and `decision.superseded` through the
 * decider kit. The same amendment again writes nothing. Clicks arriving together are committed
 * in groups with the answers (`QuestionGroups`, `closeQuestions`).
 */
export async function amendDecision(
  manager: EntityManager,
  outbox: OutboxWriter,
  projectId: string,
  questionId: string,
  amendment: AmendInput,
  now: Date,
): Promise<AmendDecision> {
  const { batch } = await lockedBatch(manager, outbox, [questionId]);
  const decision = decideAmendment(batch, { projectId, questionId, outbox, amendment }, now);
  await batch.commit();
  return decision;
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
