import { IsBoolean, IsOptional } from 'class-validator';
import { FREEZE_MOTIVO_MAX_LENGTH, FREEZE_MOTIVO_MIN_LENGTH } from '../limits';
import { GATES, type Gate } from '../vocabulary';
import { OVERRIDE_REASONS, OverrideFlag, OverrideMotivo } from '../dto/override-fields.dto';
import { FieldReasons } from '../validation';
import { GATE_HISTORY_LIMIT_MAX } from '../limits';
import { IntRange, IsEntityId, IsEntityIdList, IsOneOf, TrimmedText } from '../validators';
import { defineCommand } from './command';
import type {
  BlockingQuestionsReply,
  GateHistoryReply,
  GateResumeReply,
  GateView,
  GatesWaitingReply,
  PipelinePauseReply,
  PipelineQueueSnapshot,
  RepoFreezeReply,
} from './gates.views';
import { ProjectScoped, TaskScoped } from './project-scoped.dto';
import { Verb } from './verbs';

/**
 * §12.1 `waitingForYou` is personal: the viewer (`userId`) and the session authors they may answer
 * for now (`answersFor`: their live grants while delegation is on; the gateway asks the questions
 * service). Without `userId`, no cycle waits for the viewer.
 */
abstract class SeenBy extends ProjectScoped {
  @IsOptional()
  @IsEntityId()
  userId?: string;

  @IsOptional()
  @IsEntityIdList(100)
  answersFor?: string[];
}

/** §4 the task's cycles, as the viewer sees them (`SeenBy`). */
export class ListGatesCommand extends SeenBy {
  @IsEntityId()
  taskId!: string;
}

/**
 * §5 a person resumes an idle-parked cycle (`gate.resumed`, trigger `human`); §11.1 with
 * `override: true` and a `motivo`, a maintainer resumes a cycle parked on a user decision
 * (trigger `override`, `by` = `userId`). The gateway checks the role before it asks.
 */
@FieldReasons(OVERRIDE_REASONS)
export class ResumeGateCommand extends TaskScoped {
  @IsOneOf(GATES)
  gate!: Gate;

  @IsEntityId()
  userId!: string;

  @OverrideFlag()
  override?: true;

  @OverrideMotivo()
  motivo?: string;

  /** §12.1 the project's `overrideDeMantenedor` policy, as its owner said (absent: off, the seeds' rule). */
  @IsOptional()
  @IsBoolean()
  overrideAllowed?: boolean;
}

/** [openq] a gate's history (newest first); one gate, the task's gates, or the whole project. */
export class GateHistoryCommand extends ProjectScoped {
  @IsOptional()
  @IsEntityId()
  taskId?: string;

  @IsOptional()
  @IsOneOf(GATES)
  gate?: Gate;

  @IntRange(1, GATE_HISTORY_LIMIT_MAX)
  limit!: number;
}

/** The inbox's parked cycles, as the viewer sees them (`SeenBy`, §12.1). */
export class WaitingGatesCommand extends SeenBy {}

/** [openq] issue #18 which open questions of the project block work, and what (gates, analyses, queued tasks). */
export class BlockingQuestionsCommand extends ProjectScoped {}

export class PipelineQueueCommand extends ProjectScoped {
  @IsOptional()
  @IsEntityId()
  repo?: string | null;
}

/** §7 an operator pauses or resumes a pipeline task (source `operator`). */
export class PipelineTaskCommand extends TaskScoped {
  @IsEntityId()
  userId!: string;
}

/** §11.3 a maintainer (`userId`) lifts the freeze of a repo. */
export class RepoUnfreezeCommand extends ProjectScoped {
  @IsEntityId()
  repo!: string;

  @IsEntityId()
  userId!: string;
}

/** §11.3 a maintainer (`userId`) freezes a repo, saying why. */
export class RepoFreezeCommand extends RepoUnfreezeCommand {
  @TrimmedText(FREEZE_MOTIVO_MIN_LENGTH, FREEZE_MOTIVO_MAX_LENGTH)
  motivo!: string;
}

export const GatesCommand = {
  list: defineCommand<ListGatesCommand, GateView[]>(Verb.gates.list, ListGatesCommand),
  resume: defineCommand<ResumeGateCommand, GateResumeReply>(Verb.gates.resume, ResumeGateCommand),
  waiting: defineCommand<WaitingGatesCommand, GatesWaitingReply>(Verb.gates.waiting, WaitingGatesCommand),
  history: defineCommand<GateHistoryCommand, GateHistoryReply>(Verb.gates.history, GateHistoryCommand),
  blocking: defineCommand<BlockingQuestionsCommand, BlockingQuestionsReply>(
    Verb.gates.blocking,
    BlockingQuestionsCommand,
  ),
  pipelineQueue: defineCommand<PipelineQueueCommand, PipelineQueueSnapshot>(
    Verb.gates.pipelineQueue,
    PipelineQueueCommand,
  ),
  pipelinePause: defineCommand<PipelineTaskCommand, PipelinePauseReply>(
    Verb.gates.pipelinePause,
    PipelineTaskCommand,
  ),
  pipelineResume: defineCommand<PipelineTaskCommand, PipelinePauseReply>(
    Verb.gates.pipelineResume,
    PipelineTaskCommand,
  ),
  pipelineFreeze: defineCommand<RepoFreezeCommand, RepoFreezeReply>(
    Verb.gates.pipelineFreeze,
    RepoFreezeCommand,
  ),
  pipelineUnfreeze: defineCommand<RepoUnfreezeCommand, RepoFreezeReply>(
    Verb.gates.pipelineUnfreeze,
    RepoUnfreezeCommand,
  ),
} as const;
