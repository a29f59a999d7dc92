import { IsOptional } from 'class-validator';
import { GATES, type Gate } from '../vocabulary';
import { IsEntityId, IsOneOf } from '../validators';
import { defineCommand } from './command';
import type {
  GateResumeReply,
  GateView,
  GatesWaitingReply,
  PipelinePauseReply,
  PipelineQueueSnapshot,
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
} as const;
