import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { transactionGroups, type GroupCommitOptions, type GroupCommitter } from '@openq/messaging';
import { isRefusal } from '@openq/contracts';
import type { DeclareInput } from './domain/question';
import {
  closeQuestions,
  type AmendDecision,
  type AmendRequest,
  type AnswerDecision,
  type AnswerRequest,
  type ClosingDecision,
  type ClosingRequest,
  type WithdrawDecision,
  type WithdrawRequest,
} from './commands/close-questions';
import { declareQuestions, type DeclareResult } from './commands/declare-question/declare-question.handler';

/** A declaration arriving at the request edge (`openq.questions.declare`). */
export interface DeclareUnit {
  projectId: string;
  input: DeclareInput;
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
