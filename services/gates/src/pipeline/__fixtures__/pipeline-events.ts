import type { RepoFreezeEvent } from '../domain/repo-freeze';
import type {
  AnalystQuestionRequest,
  PauseSource,
  PipelineEvent,
  RelaunchTrigger,
} from '../domain/pipeline-task';
import type { AnalysisOutcome } from '../domain/analysis-outcome';

/**
 * The past of a pipeline task (project `p1`, repo `api`) or of a repo freeze as domain events, for
 * `given(...)` in the decider specs; step `s` of the clock is `T0 + s` seconds.
 */
export const T0 = Date.UTC(2026, 5, 17);
export const at = (s: number) => new Date(T0 + s * 1000);

export const repoFrozen = (step: number, by = 'alice', why = 'release week'): RepoFreezeEvent => ({
  type: 'pipeline.repo_frozen',
  data: { repo: 'api', by, why },
  occurredAt: at(step),
});

export const repoUnfrozen = (step: number, by = 'bob'): RepoFreezeEvent => ({
  type: 'pipeline.repo_unfrozen',
  data: { repo: 'api', by },
  occurredAt: at(step),
});

export const taskRegistered = (
  step = 0,
  o: { taskId?: string; order?: number; labels?: string[] } = {},
): PipelineEvent => ({
  type: 'pipeline.task_registered',
  data: {
    projectId: 'p1',
    taskId: o.taskId ?? 'A',
    repo: 'api',
    order: o.order ?? 1,
    deps: [],
    labels: o.labels ?? [],
  },
  occurredAt: at(step),
});

export const taskAdmitted = (step: number, taskId = 'A'): PipelineEvent => ({
  type: 'pipeline.task_admitted',
  data: { taskId, repo: 'api' },
  occurredAt: at(step),
});

export const analysisRecorded = (
  step: number,
  outcome: AnalysisOutcome['kind'],
  taskId = 'A',
): PipelineEvent => ({
  type: 'pipeline.analysis_recorded',
  data: { taskId, outcome },
  occurredAt: at(step),
});

/** The analyst's question request of session `s1` by `u1`, declaring these questions in order. */
export const analystRequest = (
  declare: AnalystQuestionRequest['declare'],
  o: { taskId?: string; sessionAuthorId?: string } = {},
): AnalystQuestionRequest => ({
  sessionId: 's1',
  sessionAuthorId: o.sessionAuthorId ?? 'u1',
  role: 'analyst',
  origin: 'analyst',
  affects: { rules: [], stories: [], tasks: [o.taskId ?? 'A'] },
  declare,
});

export const questionsRequested = (
  step: number,
  request: AnalystQuestionRequest,
  taskId = 'A',
): PipelineEvent => ({
  type: 'pipeline.questions_requested',
  data: { taskId, request },
  occurredAt: at(step),
});

export const taskPaused = (step: number, source: PauseSource, taskId = 'A'): PipelineEvent => ({
  type: 'pipeline.task_paused',
  data: { taskId, source },
  occurredAt: at(step),
});

export const taskUnpaused = (step: number, source: PauseSource, taskId = 'A'): PipelineEvent => ({
  type: 'pipeline.task_unpaused',
  data: { taskId, source },
  occurredAt: at(step),
});

/** The link of the asked questions: the internal record and the published `pipeline.needs_input`. */
export const questionsLinked = (
  step: number,
  questionIds: string[],
  answeredQuestionIds: string[] = [],
  taskId = 'A',
): PipelineEvent[] => [
  {
    type: 'pipeline.questions_linked',
    data: { taskId, questionIds, answeredQuestionIds },
    occurredAt: at(step),
  },
  { type: 'pipeline.needs_input', data: { taskId, repo: 'api', questionIds }, occurredAt: at(step) },
];

export const questionAnswered = (step: number, questionId: string, taskId = 'A'): PipelineEvent => ({
  type: 'pipeline.question_answered',
  data: { taskId, questionId },
  occurredAt: at(step),
});

/** A relaunch of the analyst; `unpause` when the task was parked (an engine unpause comes first). */
export const relaunched = (
  step: number,
  trigger: RelaunchTrigger,
  o: { unpause?: boolean; taskId?: string } = {},
): PipelineEvent[] => {
  const taskId = o.taskId ?? 'A';
  return [
    ...(o.unpause ? [taskUnpaused(step, 'engine', taskId)] : []),
    { type: 'pipeline.relaunch_recorded', data: { taskId, trigger }, occurredAt: at(step) },
    { type: 'pipeline.analyst_relaunch', data: { taskId }, occurredAt: at(step) },
  ];
};

export const stageChanged = (step: number, stage: string, taskId = 'A'): PipelineEvent => ({
  type: 'pipeline.stage_changed',
  data: { taskId, stage },
  occurredAt: at(step),
});

export const inReview = (step: number, taskId = 'A'): PipelineEvent[] => [
  analysisRecorded(step, 'in_review', taskId),
  { type: 'pipeline.in_review', data: { taskId, repo: 'api' }, occurredAt: at(step) },
];

export const advanced = (step: number, to: string, taskId = 'A'): PipelineEvent => ({
  type: 'pipeline.advanced',
  data: { taskId, to },
  occurredAt: at(step),
});

/** Task `A` registered at 0 and admitted at 1: in analysis, its analyst running. */
export const inAnalysis = (): PipelineEvent[] => [taskRegistered(0), taskAdmitted(1)];

/** The two questions the specs' analyst asks, keyed for run `run` of session `s1`. */
export const askedQuestions = (run = 0): AnalystQuestionRequest['declare'] => [
  { key: `analyst:A:s1:${run}:0`, question: 'Which market?', suggestion: 'BR' },
  { key: `analyst:A:s1:${run}:1`, question: 'Tax?', suggestion: null },
];

/** In analysis, then at 2 an analysis that needs input (auto-parked unless `autopause: false`). */
export const askedForInput = (o: { autopause?: boolean } = {}): PipelineEvent[] => [
  ...inAnalysis(),
  analysisRecorded(2, 'needs_input'),
  questionsRequested(2, analystRequest(askedQuestions())),
  ...(o.autopause === false ? [] : [taskPaused(2, 'engine')]),
];

/** Asked for input at 2 and its questions linked at 3, none answered: waiting on the user. */
export const needsInput = (questionIds = ['q1', 'q2'], o: { autopause?: boolean } = {}): PipelineEvent[] => [
  ...askedForInput(o),
  ...questionsLinked(3, questionIds),
];
