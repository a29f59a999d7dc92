import { ArrayMinSize, IsOptional } from 'class-validator';
import {
  ACROSS_PROJECTS_MAX,
  LIST_LIMIT_DEFAULT,
  LIST_LIMIT_MAX,
  LIST_LIMIT_MIN,
  BLOCKING_QUESTIONS_MAX,
  QUESTION_STATUS_IDS_MAX,
  RESPOSTA_MAX_LENGTH,
  RESPOSTA_MIN_LENGTH,
  WITHDRAW_MOTIVO_MAX_LENGTH,
  WITHDRAW_MOTIVO_MIN_LENGTH,
} from '../limits';
import {
  QUESTION_AUTHORS,
  QUESTION_LIST_FILTERS,
  QUESTION_ORIGINS,
  READINESS_ACTIONS,
  type QuestionAuthor,
  type QuestionListFilter,
  type QuestionOrigin,
  type ReadinessAction,
} from '../vocabulary';
import {
  ClassRule,
  IntRange,
  IsCursor,
  IsEntityId,
  IsEntityIdList,
  IsIdempotencyKey,
  IsOneOf,
  IsTimestamp,
  IsToolCallId,
  IsUuidList,
  IsUuidString,
  Nested,
  TrimmedText,
  isPresent,
} from '../validators';
import { AgentAnswerFields } from '../dto/agent-answer-fields.dto';
import { AUTHOR_ORIGIN_MESSAGE, InsistFields, authorMatchesOrigin } from '../dto/question-declaration.dto';
import { UserAnswerFields } from '../dto/user-answer-fields.dto';
import { QuestionFilterFields } from '../dto/question-filters.dto';
import { PolicyChangeFields } from '../dto/policy-change-fields.dto';
import { defineCommand } from './command';
import { ProjectScoped } from './project-scoped.dto';
import type {
  AnswerByAgentReply,
  AnswerQuestionReply,
  DeclareQuestionReply,
  QuestionCountReply,
  QuestionListReply,
  QuestionStatusReply,
  ReadinessReply,
  WithdrawQuestionReply,
  SplitQuestionReply,
  AmendDecisionReply,
  DelegationListReply,
  DelegationView,
  GrantDelegationReply,
  ProjectPolicies,
  ProjectPoliciesReply,
  DeclaredByReply,
} from './questions.views';
import { Verb } from './verbs';

/**
 * A declaration from any door: the tool (via the internal route), a QA verdict or the analyst.
 * `origin` defaults to `tool`. `toolCallId` is the dedupe key; it is required for `tool` and
 * optional for the others [openq], where the caller may still pass a stable key of its own
 * (e.g. `<roundId>:<subspecialty>`) to make a retried request harmless.
 */
@ClassRule<QuestionDeclarationDto>('autor|origin', authorMatchesOrigin, AUTHOR_ORIGIN_MESSAGE)
@ClassRule<QuestionDeclarationDto>(
  'toolCallId|origin',
  (o) => o.origin !== 'tool' || isPresent(o.toolCallId),
  'toolCallId is required when origin is tool',
)
export class QuestionDeclarationDto extends InsistFields {
  @IsOneOf(QUESTION_AUTHORS)
  autor!: QuestionAuthor;

  @IsOneOf(QUESTION_ORIGINS)
  origin: QuestionOrigin = 'tool';

  @IsOptional()
  @IsToolCallId()
  toolCallId?: string | null;
}

export class DeclareQuestionCommand extends ProjectScoped {
  @Nested(() => QuestionDeclarationDto)
  declaration!: QuestionDeclarationDto;
}

/** A click in the queue: `userId` is the JWT `sub`, checked against the session author. */
export class AnswerQuestionCommand extends UserAnswerFields {
  @IsEntityId()
  projectId!: string;

  @IsUuidString()
  questionId!: string;

  @IsEntityId()
  userId!: string;

  /**
   * [openq] The request's `Idempotency-Key`: the same user sending the same answer to the same
   * question with the same key gets the first reply again (200), not 409.
   */
  @IsOptional()
  @IsIdempotencyKey()
  idempotencyKey?: string | null;
}

export class AnswerByAgentCommand extends AgentAnswerFields {
  @IsEntityId()
  projectId!: string;

  @IsUuidString()
  questionId!: string;
}

/** §11.5 the session author withdraws a question by click: `userId` is the JWT `sub`. */
export class WithdrawQuestionCommand {
  @IsEntityId()
  projectId!: string;

  @IsUuidString()
  questionId!: string;

  @IsEntityId()
  userId!: string;

  @TrimmedText(WITHDRAW_MOTIVO_MIN_LENGTH, WITHDRAW_MOTIVO_MAX_LENGTH)
  motivo!: string;
}

/** §12.3 the session author splits a wrong join: `toolCallId` is the joined asker's call. */
export class SplitQuestionCommand {
  @IsEntityId()
  projectId!: string;

  @IsUuidString()
  questionId!: string;

  @IsEntityId()
  userId!: string;

  @IsToolCallId()
  toolCallId!: string;
}

/**
 * §11.5 the session author supersedes a decision an agent recorded with their own `resposta`:
 * `userId` is the JWT `sub`.
 */
export class AmendDecisionCommand {
  @IsEntityId()
  projectId!: string;

  @IsUuidString()
  questionId!: string;

  @IsEntityId()
  userId!: string;

  @TrimmedText(RESPOSTA_MIN_LENGTH, RESPOSTA_MAX_LENGTH)
  resposta!: string;
}

/** What every list command takes: who asks, the status, the page, the order and the filters. */
abstract class ListQuestionsFields extends QuestionFilterFields {
  /** Who asks: decides `canAnswer` / `inertReason` of each item (and `who=mine`). */
  @IsEntityId()
  userId!: string;

  @IsOneOf(QUESTION_LIST_FILTERS)
  status: QuestionListFilter = 'open';

  @IntRange(LIST_LIMIT_MIN, LIST_LIMIT_MAX)
  limit: number = LIST_LIMIT_DEFAULT;

  @IsOptional()
  @IsCursor()
  cursor?: string | null;

  /**
   * [openq] issue #18 open questions to list first, in this order (the gates service's blocking
   * set, handed over by the gateway: this service joins nothing), then the rest oldest first.
   */
  @IsOptional()
  @IsUuidList(BLOCKING_QUESTIONS_MAX)
  first?: string[];
}

export class ListQuestionsCommand extends ListQuestionsFields {
  @IsEntityId()
  projectId!: string;
}

/**
 * [openq] issue #18 one list over several projects (the gateway's `GET /me/open-questions`: the
 * projects the caller's token gives a role on). Items carry their `projectId`; the cursor is the
 * log position, global to the service, so paging works across projects as within one.
 */
export class ListQuestionsAcrossCommand extends ListQuestionsFields {
  @ArrayMinSize(1)
  @IsEntityIdList(ACROSS_PROJECTS_MAX)
  projectIds!: string[];
}

export class CountQuestionsCommand extends ProjectScoped {}

export class ReadinessCommand extends ProjectScoped {
  @IsOneOf(READINESS_ACTIONS)
  action!: ReadinessAction;
}

/**
 * [openq] §11.2 read-your-writes: another service asks the owner of the question log what its
 * committed state says of these ids, before refusing on the strength of its own read model.
 */
export class QuestionStatusCommand extends ProjectScoped {
  @ArrayMinSize(1)
  @IsUuidList(QUESTION_STATUS_IDS_MAX)
  questionIds!: string[];
}

/**
 * [openq] issue #34 (SPEC §12.5) which question a tool call declared, if the log has it yet: the
 * 202 of the events route carries it for an `agent.question.declare` (`declareAndWait`).
 */
export class DeclaredByCommand extends ProjectScoped {
  @IsToolCallId()
  toolCallId!: string;
}

/**
 * §11.6 `userId` (the JWT `sub`) lets `to` answer their questions in the project until `until`.
 * The shape is checked here; the decider checks the rest (`to` ≠ `userId`, `until` ahead and
 * within `DELEGATION_MAX_DAYS`: 400 `delegacao_invalida` with the field).
 */
export class GrantDelegationCommand extends ProjectScoped {
  @IsEntityId()
  userId!: string;

  @IsEntityId()
  to!: string;

  @IsTimestamp()
  until!: string;
}

/** §11.6 the grantor (`userId`, the JWT `sub`) revokes a grant. */
export class RevokeDelegationCommand extends ProjectScoped {
  @IsEntityId()
  userId!: string;

  @IsUuidString()
  grantId!: string;
}

/** §11.6 the grants from and to `userId` in the project, active and past. */
export class ListDelegationsCommand extends ProjectScoped {
  @IsEntityId()
  userId!: string;
}

/** §12.1 the project's policies; with `userId`, also whom that person may answer for now. */
export class GetPoliciesCommand extends ProjectScoped {
  @IsOptional()
  @IsEntityId()
  userId?: string;
}

/** §12.1 a maintainer (`userId`; the gateway checked the role) changes one or both policies, saying why. */
export class ChangePoliciesCommand extends PolicyChangeFields {
  @IsEntityId()
  projectId!: string;

  @IsEntityId()
  userId!: string;
}

export const QuestionsCommand = {
  declare: defineCommand<DeclareQuestionCommand, DeclareQuestionReply>(
    Verb.questions.declare,
    DeclareQuestionCommand,
  ),
  answer: defineCommand<AnswerQuestionCommand, AnswerQuestionReply>(
    Verb.questions.answer,
    AnswerQuestionCommand,
  ),
  answerByAgent: defineCommand<AnswerByAgentCommand, AnswerByAgentReply>(
    Verb.questions.answerByAgent,
    AnswerByAgentCommand,
  ),
  split: defineCommand<SplitQuestionCommand, SplitQuestionReply>(Verb.questions.split, SplitQuestionCommand),
  withdraw: defineCommand<WithdrawQuestionCommand, WithdrawQuestionReply>(
    Verb.questions.withdraw,
    WithdrawQuestionCommand,
  ),
  amend: defineCommand<AmendDecisionCommand, AmendDecisionReply>(Verb.questions.amend, AmendDecisionCommand),
  list: defineCommand<ListQuestionsCommand, QuestionListReply>(Verb.questions.list, ListQuestionsCommand),
  listAcross: defineCommand<ListQuestionsAcrossCommand, QuestionListReply>(
    Verb.questions.listAcross,
    ListQuestionsAcrossCommand,
  ),
  count: defineCommand<CountQuestionsCommand, QuestionCountReply>(
    Verb.questions.count,
    CountQuestionsCommand,
  ),
  readiness: defineCommand<ReadinessCommand, ReadinessReply>(Verb.questions.readiness, ReadinessCommand),
  status: defineCommand<QuestionStatusCommand, QuestionStatusReply>(
    Verb.questions.status,
    QuestionStatusCommand,
  ),
  declaredBy: defineCommand<DeclaredByCommand, DeclaredByReply>(Verb.questions.declaredBy, DeclaredByCommand),
  delegationGrant: defineCommand<GrantDelegationCommand, GrantDelegationReply>(
    Verb.questions.delegationGrant,
    GrantDelegationCommand,
  ),
  delegationRevoke: defineCommand<RevokeDelegationCommand, DelegationView>(
    Verb.questions.delegationRevoke,
    RevokeDelegationCommand,
  ),
  delegationList: defineCommand<ListDelegationsCommand, DelegationListReply>(
    Verb.questions.delegationList,
    ListDelegationsCommand,
  ),
  policiesGet: defineCommand<GetPoliciesCommand, ProjectPoliciesReply>(
    Verb.questions.policiesGet,
    GetPoliciesCommand,
  ),
  policiesChange: defineCommand<ChangePoliciesCommand, ProjectPolicies>(
    Verb.questions.policiesChange,
    ChangePoliciesCommand,
  ),
} as const;
