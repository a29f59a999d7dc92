import { IsOptional } from 'class-validator';
import { MAX_CORRECTIONS_MAX, MAX_CORRECTIONS_MIN, MESSAGE_MAX_LENGTH, QUESTION_IDS_MAX } from '../limits';
import {
  GATES,
  GATE_NEXT_ACTIONS,
  PARKED_REASONS,
  RESUME_TRIGGERS,
  VEREDITOS,
  type Gate,
  type GateNextAction,
  type ParkedReason,
  type ResumeTrigger,
  type Veredito,
} from '../vocabulary';
import { IntRange, IsEntityId, IsOneOf, IsUuidList, TrimmedText } from '../validators';
import type {
  GateRedispatchRequested,
  GateRescueParked,
  GateResumed,
  GateVerdictRecorded,
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

export class GateResumedDto extends GateCycleRef implements GateResumed {
  @IsOneOf(RESUME_TRIGGERS)
  trigger!: ResumeTrigger;

  @IsUuidList(QUESTION_IDS_MAX)
  questionIds!: string[];

  @IsUuidList(QUESTION_IDS_MAX)
  decisionEventIds!: string[];
}

export class GateRedispatchRequestedDto extends GateCycleRef implements GateRedispatchRequested {
  @Seconds()
  idadeSegundos!: number;
}
