import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { transactionGroups, type GroupCommitOptions, type GroupCommitter } from '@openq/messaging';
import { isRefusal } from '@openq/contracts';
import {
  decideAnswer,
  prepareAnswers,
  rememberAnswers,
  type AnswerDecision,
  type AnswerRequest,
} from '../commands/answer-question/answer-question.handler';
import {
  decideWithdrawal,
  type WithdrawDecision,
  type WithdrawRequest,
} from '../commands/withdraw-question/withdraw-question.handler';
import {
  decideAmendment,
  type AmendDecision,
  type AmendRequest,
} from '../commands/amend-decision/amend-decision.handler';
import {
  declareQuestions,
  type DeclarationInput,
  type DeclareResult,
} from '../commands/declare-question/declare-question.handler';
import { lockedBatch } from '../questions-transaction';

/**
 * A command decided under the question's lock: an answer or a withdrawal (which close it), or an
 * amendment of the answer (§11.5, which supersedes the agent's decision).
 */
export type ClosingRequest = AnswerRequest | WithdrawRequest | AmendRequest;
export type ClosingDecision = AnswerDecision | WithdrawDecision | AmendDecision;
/** The decision a request gets: an answer's for an answer, a withdrawal's for a withdrawal, and so on. */
export type DecisionOf<R extends ClosingRequest> = R extends WithdrawRequest
  ? WithdrawDecision
  : R extends AmendRequest
    ? AmendDecision
    : AnswerDecision;

/**
 * Answers (click and agent), withdrawals (§11.5, click and agent) and amendments, for a group of
 * them (a group commit) in the caller's transaction. The group's questions are locked in one
 * statement (the question's lock: an answer and a withdrawal of one question are serialised, so
 * never both stand; the log's `question_log_one_closing` index is the backstop) and loaded in
 * one; each request is then decided in memory by its use case's handler (`decideAnswer`,
 * `decideWithdrawal`, `decideAmendment`) with the question decider in the order given, on the
 * state the earlier requests of the group left — exactly as if each had had a transaction of its
 * own, one after the other: of two answers to one question the first wins and the second is
 * refused (409), or, for an agent, finds it already answered; an answer after a withdrawal is
 * refused 409 `pergunta_retirada`, a withdrawal after an answer 409 `pergunta_ja_respondida`, a
 * second withdrawal finds the first; an amendment (§11.5) sees the answer an earlier request of
 * the group recorded, and is dated never before it (`amendInstant`). The accepted requests'
 * events are appended through the decider transaction, set-based, together with their outbox
 * rows (each in its caller's outbox), and the answers' `Idempotency-Key`s remembered — all or
 * none.
 */
export async function closeQuestions<R extends ClosingRequest>(
  manager: EntityManager,
  requests: readonly R[],
  now: Date,
): Promise<DecisionOf<R>[]> {
  if (requests.length === 0) return [];
  const { batch, loaded } = await lockedBatch(
    manager,
    requests[0]!.outbox,
    requests.map((r) => r.questionId),
  );
  const all = requests as readonly ClosingRequest[];
  const answers = all.filter((r): r is AnswerRequest => 'command' in r);
  const context = await prepareAnswers(manager, answers, loaded);
  const out = all.map((request): ClosingDecision =>
    'withdrawal' in request
      ? decideWithdrawal(batch, request, now)
      : 'amendment' in request
        ? decideAmendment(batch, request, now)
        : decideAnswer(batch, request, now, context),
  );
  await batch.commit();
  await rememberAnswers(manager, context);
  return out as DecisionOf<R>[];
}

/** A declaration arriving at the request edge (`openq.questions.declare`). */
export interface DeclareUnit {
  projectId: string;
  input: DeclarationInput;
}

/** An answer arriving at the request edge (`openq.questions.answer`, `.answer-by-agent`). */
export type AnswerUnit = Omit<AnswerRequest, 'outbox'>;

/** A withdrawal arriving at the request edge (`openq.questions.withdraw`). */
export type WithdrawUnit = Omit<WithdrawRequest, 'outbox'>;

/** An amendment arriving at the request edge (`openq.questions.amend`, §11.5). */
export type AmendUnit = Omit<AmendRequest, 'outbox'>;

/** What the answers' groups take: answers, withdrawals and amendments, all under the question's lock. */
export type ClosingUnit = AnswerUnit | WithdrawUnit | AmendUnit;

/**
 * The group-commit settings of the request edge: at most 2 group transactions per kind at once
 * (4 of the pool's connections; the inbound consumers keep the rest), up to 256 units in one,
 * and no more than 4,096 waiting per kind — past that a request is refused 503 `sobrecarregado`
 * rather than left to time out (a full queue drains in ~1–2 s at the rates measured in
 * docs/performance.md).
 */
export const QUESTION_GROUPS: Omit<GroupCommitOptions, 'name'> = {
  maxGroupSize: 256,
  maxConcurrentGroups: 2,
  maxQueued: 4096,
  retryAfterSeconds: 1,
};

/** Declarations committed in groups (one transaction per group), each caller its own result. */
export function declarationGroups(
  dataSource: DataSource,
  options: Omit<GroupCommitOptions, 'name'> = QUESTION_GROUPS,
): GroupCommitter<DeclareUnit, DeclareResult> {
  return transactionGroups<DeclareUnit, DeclareResult>(
    dataSource,
    (manager, units) =>
      declareQuestions(
        manager,
        units.map(({ input, outbox }) => ({ ...input, outbox })),
        new Date(),
      ),
    { name: 'declarations', ...options },
  );
}

/**
 * Answers — and withdrawals, which take the same question lock and close a question the same way,
 * and amendments (§11.5), which take it too — committed in groups (one transaction per group),
 * each caller its own result or refusal. A withdrawal, an answer and an amendment of one question
 * in one group are decided in arrival order, as transactions one after the other would be.
 */
export function answerGroups(
  dataSource: DataSource,
  options: Omit<GroupCommitOptions, 'name'> = QUESTION_GROUPS,
): GroupCommitter<ClosingUnit, ClosingDecision> {
  return transactionGroups<ClosingUnit, ClosingDecision>(
    dataSource,
    (manager, units) =>
      closeQuestions(
        manager,
        units.map(({ input, outbox }) => ({ ...input, outbox }) as ClosingRequest),
        new Date(),
      ),
    { name: 'answers', ...options },
  );
}

/** An answer through the answers' groups: its own decision. */
export async function answerIn(
  groups: GroupCommitter<ClosingUnit, ClosingDecision>,
  unit: AnswerUnit,
): Promise<AnswerDecision> {
  const decision = await groups.submit(unit);
  // An agent's answer to a withdrawn question finds the withdrawal standing (§12.1): that is an answer's outcome too.
  if (!isRefusal(decision) && !('answered' in decision) && decision.kind !== 'already_withdrawn')
    throw new Error('an answer was decided as something else');
  return decision as AnswerDecision;
}

/** A withdrawal through the answers' groups: its own decision. */
export async function withdrawIn(
  groups: GroupCommitter<ClosingUnit, ClosingDecision>,
  unit: WithdrawUnit,
): Promise<WithdrawDecision> {
  const decision = await groups.submit(unit);
  if (!isRefusal(decision) && !('withdrawn' in decision))
    throw new Error('a withdrawal was decided as something else');
  return decision;
}

/** An amendment through the answers' groups: its own decision. */
export async function amendIn(
  groups: GroupCommitter<ClosingUnit, ClosingDecision>,
  unit: AmendUnit,
): Promise<AmendDecision> {
  const decision = await groups.submit(unit);
  if (!isRefusal(decision) && !('superseded' in decision))
    throw new Error('an amendment was decided as something else');
  return decision;
}

/**
 * The questions service's group committers (docs/decisions.md, "group commit at the edges"):
 * declarations, and answers, withdrawals and amendments, that arrive over request/reply while a group transaction runs are
 * committed together in the next one; a lone request starts at once, alone.
 */
@Injectable()
export class QuestionGroups {
  readonly declarations: GroupCommitter<DeclareUnit, DeclareResult>;
  /** Answers, withdrawals and amendments (`answerIn`, `withdrawIn`, `amendIn`). */
  readonly answers: GroupCommitter<ClosingUnit, ClosingDecision>;

  constructor(dataSource: DataSource) {
    this.declarations = declarationGroups(dataSource);
    this.answers = answerGroups(dataSource);
  }
}
