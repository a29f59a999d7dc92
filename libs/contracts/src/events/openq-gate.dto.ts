import { IsOptional, ValidateIf } from 'class-validator';
import {
  MAX_CORRECTIONS_MAX,
  MAX_CORRECTIONS_MIN,
  MESSAGE_MAX_LENGTH,
  OVERRIDE_MOTIVO_MAX_LENGTH,
  OVERRIDE_MOTIVO_MIN_LENGTH,
  QUESTION_IDS_MAX,
  RESUMO_MAX_LENGTH,
  SUBSPECIALTY_MAX_LENGTH,
  VERDICT_ITEMS_MAX,
  VERDICT_ITEM_MAX_LENGTH,
  VERDICTS_MAX,
} from '../limits';
import {
  GATES,
  GATE_NEXT_ACTIONS,
  PARKED_REASONS,
  RESUME_TRIGGERS,
  VEREDITOS,
  VERDICT_REJECTION_REASONS,
  type Gate,
  type GateNextAction,
  type ParkedReason,
  type ResumeTrigger,
  type Veredito,
  type VerdictRejectionReason,
} from '../vocabulary';
import {
  ClassRule,
  IntRange,
  IsEntityId,
  IsOneOf,
  IsUuidList,
  IsUuidString,
  NestedList,
  OptionalTrimmedText,
  TrimmedText,
  TrimmedTextList,
} from '../validators';
import type {
  GateRedispatchRequested,
  GateRescueParked,
  GatePendingChange,
  GateResumed,
  GateVerdictRecorded,
  GateVerdictRejected,
} from './openq-payloads';

const Seconds = () => IntRange(0);

abstract class GateCycleRef {
  @IsEntityId()
  taskId!: string;

  @IsOneOf(GATES)
  gate!: Gate;
}

export class GateVerdictRecordedDto extends GateCycleRef implements GateVerdictRecorded {
  @IsOneOf(VEREDITOS)
  veredito!: Veredito;

  @IntRange(0)
  correctionCount!: number;

  @IntRange(MAX_CORRECTIONS_MIN, MAX_CORRECTIONS_MAX)
  maxCorrections!: number;

  @IsOneOf(GATE_NEXT_ACTIONS)
  nextAction!: GateNextAction;
}

export class GateRescueParkedDto extends GateCycleRef implements GateRescueParked {
  @IsOneOf(PARKED_REASONS)
  reason!: ParkedReason;

  @IsUuidList(QUESTION_IDS_MAX)
  questionIds!: string[];

  @IsOptional()
  @Seconds()
  idadeSegundos?: number;

  @TrimmedText(1, MESSAGE_MAX_LENGTH)
  motivo!: string;
}

/** [openq] §5 a change QA requested in the round that parked on a decision. */
export class GatePendingChangeDto implements GatePendingChange {
  @TrimmedText(1, SUBSPECIALTY_MAX_LENGTH)
  subspecialty!: string;

  @OptionalTrimmedText(RESUMO_MAX_LENGTH)
  resumo!: string | null;

  @TrimmedTextList(VERDICT_ITEMS_MAX, VERDICT_ITEM_MAX_LENGTH)
  itens!: string[];
}

const isOverride = (o: GateResumed) => o.trigger === 'override';

/** §11.1 `by` and `motivo` come with an override, and only with it. */
@ClassRule<GateResumed>(
  'by|motivo',
  (o) => isOverride(o) || (o.by === undefined && o.motivo === undefined),
  'by and motivo are sent only with trigger override',
)
export class GateResumedDto extends GateCycleRef implements GateResumed {
  @IsOneOf(RESUME_TRIGGERS)
  trigger!: ResumeTrigger;

  @IsUuidList(QUESTION_IDS_MAX)
  questionIds!: string[];

  @IsUuidList(QUESTION_IDS_MAX)
  decisionEventIds!: string[];

  @IsOptional()
  @NestedList(() => GatePendingChangeDto, 0, VERDICTS_MAX)
  pendingChanges?: GatePendingChange[];

  @IsOptional()
  @IsUuidList(QUESTION_IDS_MAX)
  withdrawnQuestionIds?: string[];

  @ValidateIf(isOverride)
  @IsEntityId()
  by?: string;

  @ValidateIf(isOverride)
  @TrimmedText(OVERRIDE_MOTIVO_MIN_LENGTH, OVERRIDE_MOTIVO_MAX_LENGTH)
  motivo?: string;
}

export class GateRedispatchRequestedDto extends GateCycleRef implements GateRedispatchRequested {
  @Seconds()
  idadeSegundos!: number;
}

/** §11.1 a round refused for citing a question that is not in the project. */
export class GateVerdictRejectedDto extends GateCycleRef implements GateVerdictRejected {
  @IsEntityId()
  roundId!: string;

  @IsOneOf(VERDICT_REJECTION_REASONS)
  reason!: VerdictRejectionReason;

  @IsUuidString()
  questionId!: string;
}
