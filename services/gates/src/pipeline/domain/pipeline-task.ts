import { fold, normalizeAnalystQuestion, refusal, type Decider, type Decision } from '@openq/contracts';
import {
  checkAdmission,
  isTerminal,
  PENDING_STAGE,
  type AdmissionFlags,
  type Freezes,
  type QueueTask,
} from './admission';
import { analysisOutcome, type AnalysisFlags, type AnalysisReport } from './analysis-outcome';
import {
  evolve,
  type AnalystQuestionRequest,
  type PipelineEvent,
  type PipelineTask,
  type RelaunchTrigger,
} from './pipeline-task.state';

export * from './pipeline-task.state';

export type PipelineCommand =
  | {
      type: 'register';
      data: {
        projectId: string;
        taskId: string;
        repo: string;
        order: number;
        deps: readonly string[];
        labels: readonly string[];
      };
    }
  | { type: 'admit'; data: { tasks: readonly QueueTask[]; freezes: Freezes; flags: AdmissionFlags } }
  | {
      type: 'recordAnalysis';
      data: { report: AnalysisReport & { sessionId: string; sessionAuthorId: string }; flags: AnalysisFlags };
    }
  | {
      type: 'questionsLinked';
      data: { questionIds: readonly string[]; answeredQuestionIds?: readonly string[] };
    }
  | { type: 'questionAnswered'; data: { questionId: string } }
  | { type: 'statusChanged'; data: { stage?: string; status?: string } }
  | { type: 'pause' }
  | { type: 'resume' };

export type PipelineDecision = Decision<PipelineEvent>;

export function decide(command: PipelineCommand, state: PipelineTask | null, now: Date): PipelineDecision {
  if (command.type === 'register') {
    const { projectId, taskId, repo, order } = command.data;
    const data = {
      projectId,
      taskId,
      repo,
      order,
      deps: [...command.data.deps],
      labels: [...command.data.labels],
    };
    return state ? [] : [{ type: 'pipeline.task_registered', data, occurredAt: now }];
  }
  if (!state) {
    const operator = command.type === 'pause' || command.type === 'resume';
    return operator ? refusal(404, 'tarefa_nao_encontrada', 'no such task in the pipeline') : [];
  }
  switch (command.type) {
    case 'admit':
      return admit(command.data, state, now);
    case 'recordAnalysis':
      return recordAnalysis(command.data, state, now);
    case 'questionsLinked':
      return questionsLinked(command.data, state, now);
    case 'questionAnswered':
      return questionAnswered(command.data.questionId, state, now);
    case 'statusChanged':
      return statusChanged(command.data, state, now);
    case 'pause':
      return pause(state, now);
    case 'resume':
      return resume(state, now);
    default: {
      const unknownCommand: never = command;
      return unknownCommand;
    }
  }
}

function admit(
  data: { tasks: readonly QueueTask[]; freezes: Freezes; flags: AdmissionFlags },
  state: PipelineTask,
  now: Date,
): PipelineEvent[] {
  if (state.stage !== PENDING_STAGE || state.pausedAt !== null) return [];
  if (!checkAdmission(state, data.tasks, data.freezes, data.flags).admissible) return [];
  return [
    { type: 'pipeline.task_admitted', data: { taskId: state.taskId, repo: state.repo }, occurredAt: now },
  ];
}

function questionRequest(
  state: PipelineTask,
  report: { sessionId: string; sessionAuthorId: string; questions: AnalysisReport['questions'] },
): AnalystQuestionRequest {
  return {
    sessionId: report.sessionId,
    sessionAuthorId: report.sessionAuthorId,
    role: 'analyst',
    origin: 'analyst',
    affects: { rules: [], stories: [], tasks: [state.taskId] },
    // Keyed by the analyst run (session and relaunch), so a retried declare call never opens a
    // question twice, while a later run's questions never collapse onto an earlier run's.
    // The normaliser the questions file's parser returns its questions with (libs/contracts);
    // the report carries the contract's question as it is, read here in the domain's words.
    declare: report.questions.map((q, i) => {
      const normalized = normalizeAnalystQuestion(q);
      return {
        key: `analyst:${state.taskId}:${report.sessionId}:${state.relaunchCount}:${i}`,
        question: normalized.pergunta,
        suggestion: normalized.sugestao,
      };
    }),
  };
}

function recordAnalysis(
  data: { report: AnalysisReport & { sessionId: string; sessionAuthorId: string }; flags: AnalysisFlags },
  state: PipelineTask,
  now: Date,
): PipelineEvent[] {
  // The analyst's outcome only counts while the task is in analysis (the relaunch guard of ORCH-090).
  if (state.stage !== 'analysis') return [];
  const { taskId, repo } = state;
  const { outcome, questionsCheck } = analysisOutcome(data.report, data.flags);
  const degraded = questionsCheck?.degraded ? { questionsCheckError: questionsCheck.error } : {};
  const events: PipelineEvent[] = [
    {
      type: 'pipeline.analysis_recorded',
      data: { taskId, outcome: outcome.kind, ...degraded },
      occurredAt: now,
    },
  ];
  switch (outcome.kind) {
    case 'needs_input':
      events.push({
        type: 'pipeline.questions_requested',
        data: { taskId, request: questionRequest(state, data.report) },
        occurredAt: now,
      });
      if (outcome.pause && state.pausedAt === null)
        events.push({ type: 'pipeline.task_paused', data: { taskId, source: 'engine' }, occurredAt: now });
      return events;
    case 'in_review':
      events.push({ type: 'pipeline.in_review', data: { taskId, repo }, occurredAt: now });
      if (outcome.advanceTo)
        events.push({ type: 'pipeline.advanced', data: { taskId, to: outcome.advanceTo }, occurredAt: now });
      return events;
    case 'analysis_incomplete':
      events.push({
        type: 'pipeline.analysis_incomplete',
        data: { taskId, repo, missing: outcome.missing },
        occurredAt: now,
      });
      return events;
    default: {
      const unknownOutcome: never = outcome;
      return unknownOutcome;
    }
  }
}

/** Unpause + relaunch the analyst, at most once per Needs Input / pause episode. */
export function relaunchEvents(state: PipelineTask, trigger: RelaunchTrigger, now: Date): PipelineEvent[] {
  if (state.stage !== 'analysis' || state.analystRunning) return [];
  const waiting = trigger === 'answers' ? allAnswered(state) : state.needsInput || state.pausedAt !== null;
  if (!waiting) return [];
  const { taskId } = state;
  return [
    ...(state.pausedAt !== null
      ? [
          {
            type: 'pipeline.task_unpaused' as const,
            data: { taskId, source: 'engine' as const },
            occurredAt: now,
          },
        ]
      : []),
    { type: 'pipeline.relaunch_recorded', data: { taskId, trigger }, occurredAt: now },
    { type: 'pipeline.analyst_relaunch', data: { taskId }, occurredAt: now },
  ];
}

/** A Needs Input task whose linked questions (at least one) are all answered. */
function allAnswered(state: PipelineTask): boolean {
  if (!state.needsInput || state.pendingQuestionRequest || state.questionIds.length === 0) return false;
  return state.questionIds.every((id) => state.answeredQuestionIds.includes(id));
}

function questionsLinked(
  data: { questionIds: readonly string[]; answeredQuestionIds?: readonly string[] },
  state: PipelineTask,
  now: Date,
): PipelineEvent[] {
  if (!state.pendingQuestionRequest) return [];
  const { taskId, repo } = state;
  const questionIds = [...new Set(data.questionIds)];
  const linked: PipelineEvent[] = [
    {
      type: 'pipeline.questions_linked',
      data: { taskId, questionIds, answeredQuestionIds: [...(data.answeredQuestionIds ?? [])] },
      occurredAt: now,
    },
    { type: 'pipeline.needs_input', data: { taskId, repo, questionIds }, occurredAt: now },
  ];
  return [...linked, ...relaunchEvents(fold(pipelineTask, linked, state) ?? state, 'answers', now)];
}

function questionAnswered(questionId: string, state: PipelineTask, now: Date): PipelineEvent[] {
  if (state.answeredQuestionIds.includes(questionId)) return [];
  const answered: PipelineEvent = {
    type: 'pipeline.question_answered',
    data: { taskId: state.taskId, questionId },
    occurredAt: now,
  };
  return [answered, ...relaunchEvents(fold(pipelineTask, [answered], state) ?? state, 'answers', now)];
}

/** `agent.task.status`: an explicit stage wins; a terminal status is also a terminal stage. */
export function stageAfter(current: string, data: { stage?: string; status?: string }): string {
  if (data.stage) return data.stage;
  if (data.status === 'done' || data.status === 'cancelled') return data.status;
  return current;
}

function statusChanged(
  data: { stage?: string; status?: string },
  state: PipelineTask,
  now: Date,
): PipelineEvent[] {
  const stage = stageAfter(state.stage, data);
  const changed: PipelineEvent[] =
    stage === state.stage
      ? []
      : [{ type: 'pipeline.stage_changed', data: { taskId: state.taskId, stage }, occurredAt: now }];
  if (data.status !== 'in_progress') return changed;
  return [...changed, ...relaunchEvents(fold(pipelineTask, changed, state) ?? state, 'in_progress', now)];
}

function pause(state: PipelineTask, now: Date): PipelineDecision {
  if (isTerminal(state.stage)) return refusal(409, 'tarefa_encerrada', `the task is ${state.stage}`);
  if (state.pausedAt !== null) return refusal(409, 'tarefa_ja_pausada', 'the task is already paused');
  return [
    { type: 'pipeline.task_paused', data: { taskId: state.taskId, source: 'operator' }, occurredAt: now },
  ];
}

function resume(state: PipelineTask, now: Date): PipelineDecision {
  if (isTerminal(state.stage)) return refusal(409, 'tarefa_encerrada', `the task is ${state.stage}`);
  if (state.pausedAt === null) return refusal(409, 'tarefa_nao_pausada', 'the task is not paused');
  return [
    { type: 'pipeline.task_unpaused', data: { taskId: state.taskId, source: 'operator' }, occurredAt: now },
  ];
}

/** A pipeline task on the decider kit; `null` is a task not registered yet. */
export const pipelineTask: Decider<PipelineCommand, PipelineTask | null, PipelineEvent> = {
  initialState: null,
  decide,
  evolve,
};
