import { MessageRegistry, defineMessage } from '../registry';
import {
  GateRedispatchRequestedDto,
  GateRescueParkedDto,
  GateResumedDto,
  GateVerdictRecordedDto,
  GateVerdictRejectedDto,
} from './openq-gate.dto';
import {
  PipelineAdvancedDto,
  PipelineAnalysisIncompleteDto,
  PipelineAnalystRelaunchDto,
  PipelineInReviewDto,
  PipelineNeedsInputDto,
  PipelineRepoFrozenDto,
  PipelineRepoUnfrozenDto,
  PipelineTaskAdmittedDto,
  PipelineTaskPausedDto,
  PipelineTaskUnpausedDto,
} from './openq-pipeline.dto';
import {
  DecisionRecordedDto,
  QuestionAnsweredDto,
  QuestionDeclaredDto,
  QuestionRejectedDto,
  StoryArchivedDto,
  StoryCorrectedDto,
} from './openq-question.dto';
import type * as P from './openq-payloads';

export * from './openq-gate.dto';
export * from './openq-payloads';
export * from './openq-pipeline.dto';
export * from './openq-question.dto';

/** Events openq publishes (through its outboxes) on stream OPENQ_EVENTS, subject `<type>.<projectId>`. */
export const OpenqEvent = {
  QuestionDeclared: 'question.declared',
  QuestionAnswered: 'question.answered',
  QuestionRejected: 'question.rejected',
  DecisionRecorded: 'decision.recorded',
  GateVerdictRecorded: 'gate.verdict_recorded',
  GateRescueParked: 'gate.rescue_parked',
  GateResumed: 'gate.resumed',
  GateRedispatchRequested: 'gate.redispatch_requested',
  GateVerdictRejected: 'gate.verdict_rejected',
  PipelineTaskAdmitted: 'pipeline.task_admitted',
  PipelineNeedsInput: 'pipeline.needs_input',
  PipelineInReview: 'pipeline.in_review',
  PipelineAdvanced: 'pipeline.advanced',
  PipelineAnalysisIncomplete: 'pipeline.analysis_incomplete',
  PipelineTaskPaused: 'pipeline.task_paused',
  PipelineTaskUnpaused: 'pipeline.task_unpaused',
  PipelineAnalystRelaunch: 'pipeline.analyst_relaunch',
  StoryCorrected: 'story.corrected',
  PipelineRepoFrozen: 'pipeline.repo_frozen',
  PipelineRepoUnfrozen: 'pipeline.repo_unfrozen',
  StoryArchived: 'story.archived',
} as const;

export type OpenqEventType = (typeof OpenqEvent)[keyof typeof OpenqEvent];

export const OPENQ_EVENT_TYPES: readonly OpenqEventType[] = Object.values(OpenqEvent);

/** The `data` of each openq event type (what producers build and consumers handle). */
export interface OpenqEventDataMap {
  'question.declared': P.QuestionDeclared;
  'question.answered': P.QuestionAnswered;
  'question.rejected': P.QuestionRejected;
  'decision.recorded': P.DecisionRecorded;
  'gate.verdict_recorded': P.GateVerdictRecorded;
  'gate.rescue_parked': P.GateRescueParked;
  'gate.resumed': P.GateResumed;
  'gate.redispatch_requested': P.GateRedispatchRequested;
  'gate.verdict_rejected': P.GateVerdictRejected;
  'pipeline.task_admitted': P.PipelineTaskAdmitted;
  'pipeline.needs_input': P.PipelineNeedsInput;
  'pipeline.in_review': P.PipelineInReview;
  'pipeline.advanced': P.PipelineAdvanced;
  'pipeline.analysis_incomplete': P.PipelineAnalysisIncomplete;
  'pipeline.task_paused': P.PipelineTaskPaused;
  'pipeline.task_unpaused': P.PipelineTaskUnpaused;
  'pipeline.analyst_relaunch': P.PipelineAnalystRelaunch;
  'story.corrected': P.StoryCorrected;
  'pipeline.repo_frozen': P.PipelineRepoFrozen;
  'pipeline.repo_unfrozen': P.PipelineRepoUnfrozen;
  'story.archived': P.StoryArchived;
}

export type OpenqEventData<T extends OpenqEventType> = OpenqEventDataMap[T];

export const OpenqEventDefinitions = {
  questionDeclared: defineMessage(OpenqEvent.QuestionDeclared, QuestionDeclaredDto),
  questionAnswered: defineMessage(OpenqEvent.QuestionAnswered, QuestionAnsweredDto),
  questionRejected: defineMessage(OpenqEvent.QuestionRejected, QuestionRejectedDto),
  decisionRecorded: defineMessage(OpenqEvent.DecisionRecorded, DecisionRecordedDto),
  gateVerdictRecorded: defineMessage(OpenqEvent.GateVerdictRecorded, GateVerdictRecordedDto),
  gateRescueParked: defineMessage(OpenqEvent.GateRescueParked, GateRescueParkedDto),
  gateResumed: defineMessage(OpenqEvent.GateResumed, GateResumedDto),
  gateRedispatchRequested: defineMessage(OpenqEvent.GateRedispatchRequested, GateRedispatchRequestedDto),
  gateVerdictRejected: defineMessage(OpenqEvent.GateVerdictRejected, GateVerdictRejectedDto),
  pipelineTaskAdmitted: defineMessage(OpenqEvent.PipelineTaskAdmitted, PipelineTaskAdmittedDto),
  pipelineNeedsInput: defineMessage(OpenqEvent.PipelineNeedsInput, PipelineNeedsInputDto),
  pipelineInReview: defineMessage(OpenqEvent.PipelineInReview, PipelineInReviewDto),
  pipelineAdvanced: defineMessage(OpenqEvent.PipelineAdvanced, PipelineAdvancedDto),
  pipelineAnalysisIncomplete: defineMessage(
    OpenqEvent.PipelineAnalysisIncomplete,
    PipelineAnalysisIncompleteDto,
  ),
  pipelineTaskPaused: defineMessage(OpenqEvent.PipelineTaskPaused, PipelineTaskPausedDto),
  pipelineTaskUnpaused: defineMessage(OpenqEvent.PipelineTaskUnpaused, PipelineTaskUnpausedDto),
  pipelineAnalystRelaunch: defineMessage(OpenqEvent.PipelineAnalystRelaunch, PipelineAnalystRelaunchDto),
  storyCorrected: defineMessage(OpenqEvent.StoryCorrected, StoryCorrectedDto),
  pipelineRepoFrozen: defineMessage(OpenqEvent.PipelineRepoFrozen, PipelineRepoFrozenDto),
  pipelineRepoUnfrozen: defineMessage(OpenqEvent.PipelineRepoUnfrozen, PipelineRepoUnfrozenDto),
  storyArchived: defineMessage(OpenqEvent.StoryArchived, StoryArchivedDto),
} as const;

export const openqEventRegistry = new MessageRegistry(Object.values(OpenqEventDefinitions));
