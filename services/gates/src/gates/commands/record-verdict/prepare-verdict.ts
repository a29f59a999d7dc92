import type { EntityManager } from 'typeorm';
import { isRefusal, type AgentQaVerdictDto, type QuestionStatusItem, type Refusal } from '@openq/contracts';
import { RetryLaterError } from '@openq/messaging';
import type { QuestionStatusSource } from '@openq/platform';
import { citationsToCheck, type CitedQuestion, type QuestionRequest } from '../../domain/gate-cycle';
import { AnsweredQuestions } from '../../store/answered-questions.store';
import { GateCycleStore } from '../../store/gate-cycle.store';
import type { QuestionDeclarer } from '../../adapters/question-declarer';
import { declareQaQuestions } from './qa-question-declarer';
import { citedQuestion } from './cited-questions';
import { decideRound, type VerdictContext } from './decide-round';
import { roundVerdicts } from './round-verdicts';

/**
 * What the verdict's calls to the questions service found, before its transaction: what the
 * owner said of the cited questions this service had not heard answered (§11.1, §11.2), and
 * the ids of the round's new questions by key (`QuestionToDeclare.key`), or the refusal.
 */
export interface PreparedVerdict {
  asked: QuestionStatusItem[];
  declared: { ids: Record<string, string> } | { refusal: Refusal } | null;
}

/**
 * The verdict's calls to the questions service, made before its transaction, so that no pooled
 * connection and no row lock waits on them (up to the RPC timeout). The round is decided once
 * here on the cycle as it stands (read without a lock, the connection given back at once): if
 * it parks and asks new questions, they are declared now. Declaring is idempotent (each
 * question's `toolCallId` is its key: task, gate, round and subspecialty, never the cycle's
 * state), so this may run again for the same message (a retry, a batch split) and gets the same
 * questions back. A round that needs nothing (it does not park, it was already recorded) calls
 * nobody and reads nothing more than the cited questions' answers.
 */
export async function prepareVerdict(
  manager: EntityManager,
  verdict: AgentQaVerdictDto,
  questions: { declarer: QuestionDeclarer; owner: QuestionStatusSource },
  ctx: VerdictContext,
): Promise<PreparedVerdict> {
  const { projectId, correlationId } = ctx;
  const { roundId, taskId, gate, sessionId } = verdict;
  const cited = citationsToCheck(null, roundId, roundVerdicts(verdict));
  const heard = cited.length > 0 ? await new AnsweredQuestions(manager).decisionsOf(projectId, cited) : {};
  const unheard = cited.filter((id) => !(id in heard));
  const asked = unheard.length > 0 ? await questions.owner.statusOf(projectId, unheard, correlationId) : [];
  if (!asksNewQuestions(verdict)) return { asked, declared: null };

  const citations: Record<string, CitedQuestion> = Object.fromEntries(
    Object.entries(heard).map(([id, decisionEventId]) => [id, { status: 'answered', decisionEventId }]),
  );
  for (const item of asked) citations[item.questionId] = citedQuestion(item);
  const snapshot = await new GateCycleStore(manager).load({ projectId, taskId, gate });
  const round = decideRound(snapshot, verdict, citations, ctx);
  if (isRefusal(round) || !round.request) return { asked, declared: null };
  const { request } = round;
  const ids = await declareQaQuestions(
    questions.declarer,
    projectId,
    { taskId, gate, sessionId, correlationId },
    request,
  );
  if (isRefusal(ids)) return { asked, declared: { refusal: ids } };
  return { asked, declared: { ids: Object.fromEntries(request.declare.map((q, i) => [q.key, ids[i]!])) } };
}

/** Whether a parking round carries a question of its own (`pergunta`, no `openQuestionId`). */
function asksNewQuestions(verdict: AgentQaVerdictDto): boolean {
  return verdict.verdicts.some((v) => v.veredito === 'needs_user_decision' && !v.openQuestionId);
}

/** The round's new questions, as the verdict's transaction gets them. */
export interface DeclaredQuestions {
  /** Every question declared before the transaction: the verdict locks them before the cycle. */
  all(): readonly string[];
  /** The ids of `request.declare`'s questions, in order, or the questions service's refusal. */
  idsOf(request: QuestionRequest): string[] | Refusal;
}

/**
 * The questions declared before the transaction (`prepareVerdict`). The decision under the lock
 * asks for the same keys unless the cycle changed in between in a way that makes a round park
 * that did not on the snapshot (in practice: never, as parking depends on the round alone); the
 * message is then retried, and its before-transaction step declares on the fresh state.
 */
export class DeclaredBefore implements DeclaredQuestions {
  constructor(private readonly prepared: PreparedVerdict['declared']) {}

  all(): readonly string[] {
    return this.prepared && 'ids' in this.prepared ? Object.values(this.prepared.ids) : [];
  }

  idsOf(request: QuestionRequest): string[] | Refusal {
    if (request.declare.length === 0) return [];
    if (this.prepared && 'refusal' in this.prepared) return this.prepared.refusal;
    const ids = this.prepared?.ids ?? {};
    const missing = request.declare.filter((q) => !(q.key in ids)).map((q) => q.key);
    if (missing.length > 0)
      throw new RetryLaterError(
        `round ${request.roundId}: questions ${missing.join(', ')} were not declared before the transaction; retried`,
      );
    return request.declare.map((q) => ids[q.key]!);
  }
}
