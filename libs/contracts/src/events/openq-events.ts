import { MessageRegistry } from '../registry';
import { definitionsOf, eventRow, typesOf, type DataMapOf } from './event-table';
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
  DecisionSupersededDto,
  DelegationGrantedDto,
  DelegationRevokedDto,
  ProjectPolicyChangedDto,
  QuestionAnsweredDto,
  QuestionDeclaredDto,
  QuestionRejectedDto,
  QuestionWithdrawnDto,
  StoryArchivedDto,
  StoryCorrectedDto,
} from './openq-question.dto';
import { QuestionJoinedDto, QuestionPrecedentOfferedDto, QuestionSplitDto } from './openq-ask-once.dto';
import type * as P from './openq-payloads';
import type { OpenqEventName } from './openq-event-types';

export * from './openq-gate.dto';
export * from './openq-payloads';
export * from './openq-pipeline.dto';
export * from './openq-question.dto';
export * from './openq-ask-once.dto';

/**
 * Every event openq publishes (through its outboxes) on stream OPENQ_EVENTS, subject
 * `<type>.<projectId>`: one row each — wire type, payload type and DTO, the owning service that
 * publishes it, the services with a durable consumer of it, and why the engine reads it (where
 * SPEC says). The gateway's live tail follows whole families (`GATEWAY_SSE_FAMILIES`), not rows.
 * Everything below, the AsyncAPI parties (tools/asyncapi/parties.ts) and the typing of the
 * examples (testing/event-examples.ts) are derived from it: adding an event is a row here.
 */
export const OPENQ_EVENT_TABLE = {
  QuestionDeclared: eventRow<P.QuestionDeclared>()({
    type: 'question.declared',
    dto: QuestionDeclaredDto,
    publisher: 'questions',
    consumers: ['context', 'notifier'],
  }),
  QuestionAnswered: eventRow<P.QuestionAnswered>()({
    type: 'question.answered',
    dto: QuestionAnsweredDto,
    publisher: 'questions',
    // Context: §12.4 question quality (`aceitouSugestao`, `viaAgente`); its answered state for the
    // turns and corrections still comes from `decision.recorded` (issue #14).
    consumers: ['gates', 'context', 'notifier'],
  }),
  QuestionWithdrawn: eventRow<P.QuestionWithdrawn>()({
    type: 'question.withdrawn',
    dto: QuestionWithdrawnDto,
    publisher: 'questions',
    consumers: ['gates', 'context', 'notifier'],
  }),
  QuestionJoined: eventRow<P.QuestionJoined>()({
    type: 'question.joined',
    dto: QuestionJoinedDto,
    publisher: 'questions',
    consumers: ['context'],
    engine: 'SPEC §12.3: the declaration joined an open question asking the same thing (its questionId)',
  }),
  QuestionPrecedentOffered: eventRow<P.QuestionPrecedentOffered>()({
    type: 'question.precedent_offered',
    dto: QuestionPrecedentOfferedDto,
    publisher: 'questions',
    consumers: ['context'],
    engine: 'SPEC §12.3: the declaration met a decided question; its decision is the answer',
  }),
  QuestionSplit: eventRow<P.QuestionSplit>()({
    type: 'question.split',
    dto: QuestionSplitDto,
    publisher: 'questions',
    consumers: [],
  }),
  QuestionRejected: eventRow<P.QuestionRejected>()({
    type: 'question.rejected',
    dto: QuestionRejectedDto,
    publisher: 'questions',
    consumers: [],
    engine: 'SPEC §8: tells the engine its tool call was refused',
  }),
  DecisionRecorded: eventRow<P.DecisionRecorded>()({
    type: 'decision.recorded',
    dto: DecisionRecordedDto,
    publisher: 'questions',
    consumers: ['context'],
  }),
  DecisionSuperseded: eventRow<P.DecisionSuperseded>()({
    type: 'decision.superseded',
    dto: DecisionSupersededDto,
    publisher: 'questions',
    consumers: ['context'],
    engine:
      'SPEC §11.5: a gate that resumed on the superseded decision is not parked again; the engine may re-judge with the new one',
  }),
  DelegationGranted: eventRow<P.DelegationGranted>()({
    type: 'delegation.granted',
    dto: DelegationGrantedDto,
    publisher: 'questions',
    consumers: [],
  }),
  DelegationRevoked: eventRow<P.DelegationRevoked>()({
    type: 'delegation.revoked',
    dto: DelegationRevokedDto,
    publisher: 'questions',
    consumers: [],
  }),
  ProjectPolicyChanged: eventRow<P.ProjectPolicyChanged>()({
    type: 'project.policy_changed',
    dto: ProjectPolicyChangedDto,
    publisher: 'questions',
    consumers: [],
  }),
  GateVerdictRecorded: eventRow<P.GateVerdictRecorded>()({
    type: 'gate.verdict_recorded',
    dto: GateVerdictRecordedDto,
    publisher: 'gates',
    consumers: [],
    engine: 'SPEC §5: `nextAction` (correct, run_secops, done, blocked, parked)',
  }),
  GateRescueParked: eventRow<P.GateRescueParked>()({
    type: 'gate.rescue_parked',
    dto: GateRescueParkedDto,
    publisher: 'gates',
    consumers: ['context', 'notifier'],
  }),
  GateResumed: eventRow<P.GateResumed>()({
    type: 'gate.resumed',
    dto: GateResumedDto,
    publisher: 'gates',
    consumers: ['context', 'notifier'],
    engine: 'SPEC §5: the engine re-runs the gate with the decision in context',
  }),
  GateRedispatchRequested: eventRow<P.GateRedispatchRequested>()({
    type: 'gate.redispatch_requested',
    dto: GateRedispatchRequestedDto,
    publisher: 'gates',
    consumers: [],
    engine: 'SPEC §5: the engine re-dispatches the stale cycle',
  }),
  GateVerdictRejected: eventRow<P.GateVerdictRejected>()({
    type: 'gate.verdict_rejected',
    dto: GateVerdictRejectedDto,
    publisher: 'gates',
    consumers: [],
    engine: 'SPEC §11.1: tells the engine its QA round was refused, and why',
  }),
  PipelineTaskAdmitted: eventRow<P.PipelineTaskAdmitted>()({
    type: 'pipeline.task_admitted',
    dto: PipelineTaskAdmittedDto,
    publisher: 'gates',
    consumers: [],
    engine: 'SPEC §7: the engine may start the analyst',
  }),
  PipelineNeedsInput: eventRow<P.PipelineNeedsInput>()({
    type: 'pipeline.needs_input',
    dto: PipelineNeedsInputDto,
    publisher: 'gates',
    consumers: [],
  }),
  PipelineInReview: eventRow<P.PipelineInReview>()({
    type: 'pipeline.in_review',
    dto: PipelineInReviewDto,
    publisher: 'gates',
    consumers: [],
  }),
  PipelineAdvanced: eventRow<P.PipelineAdvanced>()({
    type: 'pipeline.advanced',
    dto: PipelineAdvancedDto,
    publisher: 'gates',
    consumers: [],
  }),
  PipelineAnalysisIncomplete: eventRow<P.PipelineAnalysisIncomplete>()({
    type: 'pipeline.analysis_incomplete',
    dto: PipelineAnalysisIncompleteDto,
    publisher: 'gates',
    consumers: [],
  }),
  PipelineTaskPaused: eventRow<P.PipelineTaskPaused>()({
    type: 'pipeline.task_paused',
    dto: PipelineTaskPausedDto,
    publisher: 'gates',
    consumers: [],
  }),
  PipelineTaskUnpaused: eventRow<P.PipelineTaskUnpaused>()({
    type: 'pipeline.task_unpaused',
    dto: PipelineTaskUnpausedDto,
    publisher: 'gates',
    consumers: [],
  }),
  PipelineAnalystRelaunch: eventRow<P.PipelineAnalystRelaunch>()({
    type: 'pipeline.analyst_relaunch',
    dto: PipelineAnalystRelaunchDto,
    publisher: 'gates',
    consumers: [],
    engine: 'SPEC §7: the engine relaunches the analyst',
  }),
  StoryCorrected: eventRow<P.StoryCorrected>()({
    type: 'story.corrected',
    dto: StoryCorrectedDto,
    publisher: 'context',
    consumers: [],
  }),
  PipelineRepoFrozen: eventRow<P.PipelineRepoFrozen>()({
    type: 'pipeline.repo_frozen',
    dto: PipelineRepoFrozenDto,
    publisher: 'gates',
    consumers: [],
  }),
  PipelineRepoUnfrozen: eventRow<P.PipelineRepoUnfrozen>()({
    type: 'pipeline.repo_unfrozen',
    dto: PipelineRepoUnfrozenDto,
    publisher: 'gates',
    consumers: [],
  }),
  StoryArchived: eventRow<P.StoryArchived>()({
    type: 'story.archived',
    dto: StoryArchivedDto,
    publisher: 'context',
    consumers: [],
  }),
} as const;

export type OpenqEventTable = typeof OPENQ_EVENT_TABLE;

export const OpenqEvent = typesOf(OPENQ_EVENT_TABLE);

export type OpenqEventType = (typeof OpenqEvent)[keyof typeof OpenqEvent];

export const OPENQ_EVENT_TYPES: readonly OpenqEventType[] = Object.values(OpenqEvent);

/** The `data` of each openq event type (what producers build and consumers handle). */
export type OpenqEventDataMap = DataMapOf<OpenqEventTable>;

export type OpenqEventData<T extends OpenqEventType> = OpenqEventDataMap[T];

export const OpenqEventDefinitions = definitionsOf(OPENQ_EVENT_TABLE);

export const openqEventRegistry = new MessageRegistry(Object.values(OpenqEventDefinitions));

/** The browser's list (openq-event-types.ts) names exactly the table's types: a drift fails to compile. */
type SameUnion<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const eventNamesMatchTable: SameUnion<OpenqEventName, OpenqEventType> = true;
void eventNamesMatchTable;
