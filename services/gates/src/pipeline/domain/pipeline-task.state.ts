import type { DomainEvent } from '@openq/contracts';
import type { AnalysisOutcome } from './analysis-outcome';

export type PauseSource = 'engine' | 'operator';
export type RelaunchTrigger = 'answers' | 'in_progress';

/** Known stages; the engine may report others, kept as they come. */
export type PipelineStage = 'created' | 'analysis' | 'architecture' | 'done' | 'cancelled' | (string & {});

export interface AnalystQuestionRequest {
  sessionId: string;
  sessionAuthorId: string;
  role: 'analyst';
  origin: 'analyst';
  affects: { rules: string[]; stories: string[]; tasks: string[] };
  declare: { key: string; question: string; suggestion: string | null }[];
}

export interface PipelineTask {
  projectId: string;
  taskId: string;
  repo: string;
  order: number;
  deps: readonly string[];
  labels: readonly string[];
  stage: PipelineStage;
  pausedAt: Date | null;
  pauseSource: PauseSource | null;
  analystRunning: boolean;
  /** In Needs Input since the last analysis, not relaunched yet: the episode a relaunch ends. */
  needsInput: boolean;
  questionIds: readonly string[];
  answeredQuestionIds: readonly string[];
  pendingQuestionRequest: AnalystQuestionRequest | null;
  relaunchCount: number;
  lastRelaunchTrigger: RelaunchTrigger | null;
  updatedAt: Date;
}

type Ref = { taskId: string };

// Published (SPEC §7).
export type TaskAdmitted = DomainEvent<'pipeline.task_admitted', Ref & { repo: string }>;
export type NeedsInput = DomainEvent<'pipeline.needs_input', Ref & { repo: string; questionIds: string[] }>;
export type InReview = DomainEvent<'pipeline.in_review', Ref & { repo: string }>;
export type Advanced = DomainEvent<'pipeline.advanced', Ref & { to: string }>;
export type AnalysisIncomplete = DomainEvent<
  'pipeline.analysis_incomplete',
  Ref & { repo: string; missing: string[] }
>;
export type TaskPaused = DomainEvent<'pipeline.task_paused', Ref & { source: PauseSource }>;
export type TaskUnpaused = DomainEvent<'pipeline.task_unpaused', Ref & { source: PauseSource }>;
export type AnalystRelaunch = DomainEvent<'pipeline.analyst_relaunch', Ref>;

// Internal.
export type TaskRegistered = DomainEvent<
  'pipeline.task_registered',
  Ref & { projectId: string; repo: string; order: number; deps: string[]; labels: string[] }
>;
export type StageChanged = DomainEvent<'pipeline.stage_changed', Ref & { stage: string }>;
/** `questionsCheckError`: the questions predicate failed and degraded to "not active" (log and count it). */
export type AnalysisRecorded = DomainEvent<
  'pipeline.analysis_recorded',
  Ref & { outcome: AnalysisOutcome['kind']; questionsCheckError?: string }
>;
export type QuestionsRequested = DomainEvent<
  'pipeline.questions_requested',
  Ref & { request: AnalystQuestionRequest }
>;
export type QuestionsLinked = DomainEvent<
  'pipeline.questions_linked',
  Ref & { questionIds: string[]; answeredQuestionIds: string[] }
>;
export type QuestionAnswered = DomainEvent<'pipeline.question_answered', Ref & { questionId: string }>;
export type RelaunchRecorded = DomainEvent<'pipeline.relaunch_recorded', Ref & { trigger: RelaunchTrigger }>;

export type PublishedPipelineEvent =
  | TaskAdmitted
  | NeedsInput
  | InReview
  | Advanced
  | AnalysisIncomplete
  | TaskPaused
  | TaskUnpaused
  | AnalystRelaunch;
export type PipelineEvent =
  | PublishedPipelineEvent
  | TaskRegistered
  | StageChanged
  | AnalysisRecorded
  | QuestionsRequested
  | QuestionsLinked
  | QuestionAnswered
  | RelaunchRecorded;

const INTERNAL: ReadonlySet<string> = new Set<PipelineEvent['type']>([
  'pipeline.task_registered',
  'pipeline.stage_changed',
  'pipeline.analysis_recorded',
  'pipeline.questions_requested',
  'pipeline.questions_linked',
  'pipeline.question_answered',
  'pipeline.relaunch_recorded',
]);

export function isPublishedPipelineEvent(event: PipelineEvent): event is PublishedPipelineEvent {
  return !INTERNAL.has(event.type);
}

const union = (a: readonly string[], b: readonly string[]) => [...new Set([...a, ...b])];

/** Folds one event into the task; `null` is a task not registered yet. */
export function evolve(state: PipelineTask | null, event: PipelineEvent): PipelineTask | null {
  const at = event.occurredAt;
  if (event.type === 'pipeline.task_registered') {
    if (state) return state;
    const { projectId, taskId, repo, order, deps, labels } = event.data;
    return {
      projectId,
      taskId,
      repo,
      order,
      deps,
      labels,
      stage: 'created',
      pausedAt: null,
      pauseSource: null,
      analystRunning: false,
      needsInput: false,
      questionIds: [],
      answeredQuestionIds: [],
      pendingQuestionRequest: null,
      relaunchCount: 0,
      lastRelaunchTrigger: null,
      updatedAt: at,
    };
  }
  if (state === null) return null;
  const next = { ...state, updatedAt: at };
  switch (event.type) {
    case 'pipeline.task_admitted':
      return { ...next, stage: 'analysis', analystRunning: true };
    case 'pipeline.stage_changed':
      return { ...next, stage: event.data.stage };
    case 'pipeline.analysis_recorded': {
      const needsInput = event.data.outcome === 'needs_input';
      return { ...next, analystRunning: false, needsInput, ...(needsInput ? { questionIds: [] } : {}) };
    }
    case 'pipeline.questions_requested':
      return { ...next, pendingQuestionRequest: event.data.request };
    case 'pipeline.questions_linked':
      return {
        ...next,
        pendingQuestionRequest: null,
        questionIds: event.data.questionIds,
        answeredQuestionIds: union(state.answeredQuestionIds, event.data.answeredQuestionIds),
      };
    case 'pipeline.question_answered':
      return { ...next, answeredQuestionIds: union(state.answeredQuestionIds, [event.data.questionId]) };
    case 'pipeline.task_paused':
      return { ...next, pausedAt: at, pauseSource: event.data.source };
    case 'pipeline.task_unpaused':
      return { ...next, pausedAt: null, pauseSource: null };
    case 'pipeline.relaunch_recorded':
      return {
        ...next,
        needsInput: false,
        analystRunning: true,
        pendingQuestionRequest: null,
        relaunchCount: state.relaunchCount + 1,
        lastRelaunchTrigger: event.data.trigger,
      };
    case 'pipeline.advanced':
      return { ...next, stage: event.data.to };
    case 'pipeline.needs_input':
    case 'pipeline.in_review':
    case 'pipeline.analysis_incomplete':
    case 'pipeline.analyst_relaunch':
      return next;
    default: {
      const unknownEvent: never = event;
      return unknownEvent;
    }
  }
}
