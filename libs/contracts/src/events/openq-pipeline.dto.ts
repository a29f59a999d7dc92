import { ArrayMaxSize, IsArray } from 'class-validator';
import { FREEZE_MOTIVO_MAX_LENGTH, FREEZE_MOTIVO_MIN_LENGTH, QUESTION_IDS_MAX } from '../limits';
import {
  ANALYST_DELIVERABLES,
  PAUSE_SOURCES,
  type AnalystDeliverable,
  type PauseSource,
} from '../vocabulary';
import { IsEntityId, IsOneOf, IsUuidList, TrimmedText, compose } from '../validators';

const DeliverableList = () =>
  compose(
    IsArray(),
    ArrayMaxSize(ANALYST_DELIVERABLES.length),
    IsOneOf(ANALYST_DELIVERABLES, { each: true }),
  );
import type {
  PipelineAdvanced,
  PipelineAnalysisIncomplete,
  PipelineAnalystRelaunch,
  PipelineInReview,
  PipelineNeedsInput,
  PipelineRepoFrozen,
  PipelineRepoUnfrozen,
  PipelineTaskAdmitted,
  PipelineTaskPaused,
  PipelineTaskUnpaused,
} from './openq-payloads';

export class PipelineAnalystRelaunchDto implements PipelineAnalystRelaunch {
  @IsEntityId()
  taskId!: string;
}

abstract class RepoTaskRef {
  @IsEntityId()
  taskId!: string;

  @IsEntityId()
  repo!: string;
}

export class PipelineTaskAdmittedDto extends RepoTaskRef implements PipelineTaskAdmitted {}

export class PipelineInReviewDto extends RepoTaskRef implements PipelineInReview {}

export class PipelineNeedsInputDto extends RepoTaskRef implements PipelineNeedsInput {
  @IsUuidList(QUESTION_IDS_MAX)
  questionIds!: string[];
}

export class PipelineAnalysisIncompleteDto extends RepoTaskRef implements PipelineAnalysisIncomplete {
  @DeliverableList()
  missing!: AnalystDeliverable[];
}

export class PipelineAdvancedDto implements PipelineAdvanced {
  @IsEntityId()
  taskId!: string;

  /** The stage the task moved to (e.g. `architecture`). */
  @IsEntityId()
  to!: string;
}

export class PipelineTaskPausedDto implements PipelineTaskPaused {
  @IsEntityId()
  taskId!: string;

  @IsOneOf(PAUSE_SOURCES)
  source!: PauseSource;
}

export class PipelineTaskUnpausedDto extends PipelineTaskPausedDto implements PipelineTaskUnpaused {}

export class PipelineRepoUnfrozenDto implements PipelineRepoUnfrozen {
  @IsEntityId()
  repo!: string;

  /** A user id, or `agent` (the engine's `agent.repo.freeze`). */
  @IsEntityId()
  by!: string;
}

export class PipelineRepoFrozenDto extends PipelineRepoUnfrozenDto implements PipelineRepoFrozen {
  @TrimmedText(FREEZE_MOTIVO_MIN_LENGTH, FREEZE_MOTIVO_MAX_LENGTH)
  motivo!: string;
}
