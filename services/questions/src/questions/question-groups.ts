import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { transactionGroups, type GroupCommitOptions, type GroupCommitter } from '@openq/messaging';
import type { DeclareInput } from './domain/question';
import {
  answerQuestions,
  type AnswerDecision,
  type AnswerRequest,
} from './commands/answer-question/answer-question.handler';
import { declareQuestions, type DeclareResult } from './commands/declare-question/declare-question.handler';

/** A declaration arriving at the request edge (`openq.questions.declare`). */
export interface DeclareUnit {
  projectId: string;
  input: DeclareInput;
}

/** An answer arriving at the request edge (`openq.questions.answer`, `.answer-by-agent`). */
export type AnswerUnit = Omit<AnswerRequest, 'outbox'>;

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

/** Answers committed in groups (one transaction per group), each caller its own result or refusal. */
export function answerGroups(
  dataSource: DataSource,
  options: Omit<GroupCommitOptions, 'name'> = QUESTION_GROUPS,
): GroupCommitter<AnswerUnit, AnswerDecision> {
  return transactionGroups<AnswerUnit, AnswerDecision>(
    dataSource,
    (manager, units) =>
      answerQuestions(
        manager,
        units.map(({ input, outbox }) => ({ ...input, outbox }) as AnswerRequest),
        new Date(),
      ),
    { name: 'answers', ...options },
  );
}

/**
 * The questions service's group committers (docs/decisions.md, "group commit at the edges"):
 * declarations and answers that arrive over request/reply while a group transaction runs are
 * committed together in the next one; a lone request starts at once, alone.
 */
@Injectable()
export class QuestionGroups {
  readonly declarations: GroupCommitter<DeclareUnit, DeclareResult>;
  readonly answers: GroupCommitter<AnswerUnit, AnswerDecision>;

  constructor(dataSource: DataSource) {
    this.declarations = declarationGroups(dataSource);
    this.answers = answerGroups(dataSource);
  }
}
