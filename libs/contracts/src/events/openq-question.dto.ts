import { IsBoolean, IsOptional } from 'class-validator';
import {
  INSIST_MOTIVO_MAX_LENGTH,
  INSIST_MOTIVO_MIN_LENGTH,
  MESSAGE_MAX_LENGTH,
  PERGUNTA_MAX_LENGTH,
  PERGUNTA_MIN_LENGTH,
  REASON_MAX_LENGTH,
  RESPOSTA_MAX_LENGTH,
  RESPOSTA_MIN_LENGTH,
  WITHDRAW_MOTIVO_MAX_LENGTH,
  WITHDRAW_MOTIVO_MIN_LENGTH,
} from '../limits';
import {
  ASKER_ROLES,
  QUESTION_AUTHORS,
  QUESTION_ORIGINS,
  type AskerRole,
  type QuestionAuthor,
  type QuestionOrigin,
} from '../vocabulary';
import {
  ClassRule,
  IsEntityId,
  IsOneOf,
  IsTimestamp,
  IsToolCallId,
  IsUuidString,
  Nested,
  Nullable,
  TrimmedText,
} from '../validators';
import { ActorDto, UserActorDto } from '../dto/actor.dto';
import { AfetaDto } from '../dto/afeta.dto';
import {
  AUTHOR_ORIGIN_MESSAGE,
  QuestionDeclarationFields,
  authorMatchesOrigin,
} from '../dto/question-declaration.dto';
import { StoryChangesDto } from '../dto/story-changes.dto';
import type {
  DecisionRecorded,
  DecisionSuperseded,
  DelegationGranted,
  DelegationRevoked,
  ProjectPolicyChanged,
  QuestionAnswered,
  QuestionRejected,
  QuestionWithdrawn,
  StoryArchived,
  StoryCorrected,
} from './openq-payloads';

/** `question.declared` (see `QuestionDeclared`). */
@ClassRule<QuestionDeclaredDto>('autor|origin', authorMatchesOrigin, AUTHOR_ORIGIN_MESSAGE)
export class QuestionDeclaredDto extends QuestionDeclarationFields {
  @IsUuidString()
  questionId!: string;

  @IsOneOf(QUESTION_AUTHORS)
  autor!: QuestionAuthor;

  @IsOneOf(QUESTION_ORIGINS)
  origin!: QuestionOrigin;

  @Nullable()
  @IsToolCallId()
  toolCallId!: string | null;

  @IsTimestamp()
  declaredAt!: string;

  /** §12.3 the decided question this one was asked again over; absent unless the asker insisted. */
  @IsOptional()
  @IsUuidString()
  precedentOf?: string | null;

  @IsOptional()
  @TrimmedText(INSIST_MOTIVO_MIN_LENGTH, INSIST_MOTIVO_MAX_LENGTH)
  motivo?: string | null;
}

export class QuestionAnsweredDto implements QuestionAnswered {
  @IsUuidString()
  questionId!: string;

  @TrimmedText(RESPOSTA_MIN_LENGTH, RESPOSTA_MAX_LENGTH)
  resposta!: string;

  @IsBoolean()
  aceitouSugestao!: boolean;

  @IsUuidString()
  decisionEventId!: string;

  @IsEntityId()
  respondidaPor!: string;

  @Nullable()
  @IsOneOf(ASKER_ROLES)
  viaAgente!: AskerRole | null;

  /** §11.2 optional: an answer without it (a click, an older event) stays valid. */
  @IsOptional()
  @IsEntityId()
  agentSessionId?: string | null;

  /** §11.6 optional: absent for an agent's answer and for answers before delegation. */
  @IsOptional()
  @IsEntityId()
  answeredBy?: string | null;

  @IsOptional()
  @IsUuidString()
  grantId?: string | null;

  @IsTimestamp()
  answeredAt!: string;
}

export class QuestionWithdrawnDto implements QuestionWithdrawn {
  @IsUuidString()
  questionId!: string;

  @Nested(() => ActorDto)
  by!: ActorDto;

  @TrimmedText(WITHDRAW_MOTIVO_MIN_LENGTH, WITHDRAW_MOTIVO_MAX_LENGTH)
  motivo!: string;

  @IsTimestamp()
  withdrawnAt!: string;
}

export class QuestionRejectedDto implements QuestionRejected {
  @IsToolCallId()
  toolCallId!: string;

  @TrimmedText(1, REASON_MAX_LENGTH)
  reason!: string;

  @TrimmedText(1, MESSAGE_MAX_LENGTH)
  message!: string;
}

export class DecisionRecordedDto implements DecisionRecorded {
  @IsUuidString()
  decisionEventId!: string;

  @Nested(() => UserActorDto)
  actor!: UserActorDto;

  @TrimmedText(PERGUNTA_MIN_LENGTH, PERGUNTA_MAX_LENGTH)
  context!: string;

  @TrimmedText(RESPOSTA_MIN_LENGTH, RESPOSTA_MAX_LENGTH)
  choice!: string;

  @Nested(() => AfetaDto)
  consequences!: AfetaDto;

  @IsUuidString()
  questionId!: string;

  @Nullable()
  @IsOneOf(ASKER_ROLES)
  viaAgente!: AskerRole | null;

  /** §11.2 optional: a decision without it (a click, an older event) stays valid. */
  @IsOptional()
  @IsEntityId()
  agentSessionId?: string | null;

  @IsOptional()
  @IsEntityId()
  answeredBy?: string | null;

  @IsOptional()
  @IsUuidString()
  grantId?: string | null;

  @IsTimestamp()
  decidedAt!: string;
}

export class StoryCorrectedDto implements StoryCorrected {
  @IsEntityId()
  storyId!: string;

  @Nullable()
  @IsUuidString()
  questionId!: string | null;

  @Nested(() => ActorDto)
  actor!: ActorDto;

  @Nested(() => StoryChangesDto)
  changes!: StoryChangesDto;
}

export class StoryArchivedDto implements StoryArchived {
  @IsEntityId()
  storyId!: string;

  @Nested(() => ActorDto)
  actor!: ActorDto;
}

export class DecisionSupersededDto implements DecisionSuperseded {
  @IsUuidString()
  questionId!: string;

  @IsUuidString()
  supersededDecisionEventId!: string;

  @IsOneOf(ASKER_ROLES)
  supersededViaAgente!: AskerRole;

  @IsUuidString()
  decisionEventId!: string;

  @TrimmedText(RESPOSTA_MIN_LENGTH, RESPOSTA_MAX_LENGTH)
  resposta!: string;

  @IsEntityId()
  by!: string;

  @IsTimestamp()
  supersededAt!: string;
}

export class ProjectPolicyChangedDto implements ProjectPolicyChanged {
  @IsEntityId()
  projectId!: string;

  @IsEntityId()
  by!: string;

  @TrimmedText(WITHDRAW_MOTIVO_MIN_LENGTH, WITHDRAW_MOTIVO_MAX_LENGTH)
  motivo!: string;

  @IsBoolean()
  delegacao!: boolean;

  @IsBoolean()
  overrideDeMantenedor!: boolean;

  @IsTimestamp()
  changedAt!: string;
}

export class DelegationGrantedDto implements DelegationGranted {
  @IsUuidString()
  grantId!: string;

  @IsEntityId()
  projectId!: string;

  @IsEntityId()
  from!: string;

  @IsEntityId()
  to!: string;

  @IsTimestamp()
  until!: string;

  @IsTimestamp()
  grantedAt!: string;
}

export class DelegationRevokedDto implements DelegationRevoked {
  @IsUuidString()
  grantId!: string;

  @IsEntityId()
  projectId!: string;

  @IsEntityId()
  by!: string;

  @IsTimestamp()
  revokedAt!: string;
}
