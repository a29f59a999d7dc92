import type { OpenqEventDataMap } from '../events/openq-events';
import type {
  BlockedWorkKind,
  BlockingReason,
  Gate,
  GateState,
  ParkedReason,
  PauseSource,
  PipelineTaskState,
  TaskStatus,
} from '../vocabulary';

/** §4 one gate cycle of a task. */
export interface GateView {
  gate: Gate;
  state: GateState;
  /** Set only while `state` is `parked`. */
  parkedReason: ParkedReason | null;
  /** The open questions a `user_decision` park waits on (empty otherwise). */
  questionIds: string[];
  correctionCount: number;
  maxCorrections: number;
  /** Parked on the user's decision: the task shows as "waiting for you". */
  waitingForYou: boolean;
  updatedAt: string;
}

/**
 * [openq] issue #18 one piece of work that waits on a question: a gate cycle parked on it (`gate`),
 * a task's analysis in Needs Input on it (`analysis`, with its `repo`), or a task queued behind such
 * a task (`queued`, `behindTaskId`). `since`: since when it waits (the park's or the pause's
 * instant; `null` when unknown, e.g. Needs Input without auto-pause).
 */
export interface BlockedWork {
  kind: BlockedWorkKind;
  taskId: string;
  gate?: Gate;
  repo?: string;
  behindTaskId?: string;
  since: string | null;
}

/** [openq] issue #18 an open question and what waits on it, heaviest first. */
export interface BlockingQuestion {
  questionId: string;
  blocks: BlockedWork[];
  /** The longest wait among `blocks` (null when none is known). */
  since: string | null;
}

/**
 * [openq] issue #18 `gates.blocking`: the project's open questions that block work, blocking most
 * first (then waiting longest), at most `BLOCKING_QUESTIONS_MAX` with the `total`.
 */
export interface BlockingQuestionsReply {
  items: BlockingQuestion[];
  total: number;
}

/** The inbox's "waiting for you": parked cycles of the project, with their task. */
export interface WaitingGateView extends GateView {
  taskId: string;
}

export interface GatesWaitingReply {
  items: WaitingGateView[];
  total: number;
}

export interface GateResumeReply {
  ok: true;
}

/** [openq] One published event of a gate cycle, as it went on the wire (`data` is its payload). */
export type GateHistoryEntry = {
  [T in GateHistoryEventType]: {
    taskId: string;
    gate: Gate;
    type: T;
    occurredAt: string;
    data: OpenqEventDataMap[T];
  };
}[GateHistoryEventType];

/**
 * The events a gate's history lists: every event of a cycle the gates service publishes, a round
 * it refused (`gate.verdict_rejected`, §11.1) included.
 */
export type GateHistoryEventType =
  | 'gate.verdict_recorded'
  | 'gate.rescue_parked'
  | 'gate.resumed'
  | 'gate.redispatch_requested'
  | 'gate.verdict_rejected';

/** [openq] A gate's history, newest first: `total` counts every entry, `items` is the slice. */
export interface GateHistoryReply {
  items: GateHistoryEntry[];
  total: number;
}

/** §7 one task in the per-repo queue, judged by the one admission predicate. */
export interface PipelineQueueTask {
  taskId: string;
  repo: string;
  /** FIFO key inside the repo (lower goes first). */
  order: number;
  deps: string[];
  labels: string[];
  stage: string | null;
  status: TaskStatus | null;
  state: PipelineTaskState;
  pausedAt: string | null;
  pauseSource: PauseSource | null;
  /** Why the task may not enter analysis now (freeze > dependency > active task > none). */
  blockingReason: BlockingReason;
  /** The tasks behind `dependency` or `active_task` (empty otherwise). */
  blockedBy: string[];
  /** Analyst questions still open (Needs Input). */
  questionIds: string[];
}

/** §7 `/queue` snapshot: tasks ordered by repo, then `order`. */
export interface PipelineQueueSnapshot {
  /** The `repo` filter asked for, `null` for every repo. */
  repo: string | null;
  tasks: PipelineQueueTask[];
  total: number;
  frozenRepos: string[];
  /** §11.3 who froze each frozen repo (of `repo` when asked), and why; by repo. */
  freezes: RepoFreezeView[];
}

/** §4 pause / resume of a pipeline task by an operator. */
export interface PipelinePauseReply {
  taskId: string;
  pausedAt: string | null;
  pauseSource: PauseSource | null;
  /** False when the task was already in the asked state (the call is idempotent). */
  changed: boolean;
}

/** §11.3 a frozen repo: who froze it, why, since when. */
export interface RepoFreezeView {
  repo: string;
  /** A user id, or `agent` (the engine's `agent.repo.freeze`). */
  by: string;
  /** Null only for a freeze written by hand in the table before the freeze routes existed. */
  motivo: string | null;
  frozenAt: string;
}

/** §11.3 freeze / unfreeze of a repo by a maintainer (or the engine's `agent.repo.freeze`). */
export interface RepoFreezeReply {
  repo: string;
  frozen: boolean;
  /** The freeze in force after the call (the first one, when the repo was already frozen); null when unfrozen. */
  freeze: RepoFreezeView | null;
  /** False when the repo was already in the asked state: nothing was written, no event went out. */
  changed: boolean;
}
