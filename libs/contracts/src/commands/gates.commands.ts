import { IsOptional } from 'class-validator';
import { FREEZE_MOTIVO_MAX_LENGTH, FREEZE_MOTIVO_MIN_LENGTH } from '../limits';
import { GATES, type Gate } from '../vocabulary';
import { IsEntityId, IsOneOf, TrimmedText } from '../validators';
import { defineCommand } from './command';
import type {
  GateResumeReply,
  GateView,
  GatesWaitingReply,
  PipelinePauseReply,
  PipelineQueueSnapshot,
  RepoFreezeReply,
} from './gates.views';
import { ProjectScoped, TaskScoped } from './project-scoped.dto';
import { Verb } from './verbs';

export class ListGatesCommand extends TaskScoped {}

/** §5 a person resumes an idle-parked cycle (`gate.resumed`, trigger `human`). */
export class ResumeGateCommand extends TaskScoped {
  @IsOneOf(GATES)
  gate!: Gate;

  @IsEntityId()
  userId!: string;
}

export class WaitingGatesCommand extends ProjectScoped {}

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
