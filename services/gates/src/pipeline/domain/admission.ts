/** What the per-repo serial gate needs to know about a task (a `PipelineTask` is one). */
export interface QueueTask {
  taskId: string;
  repo: string;
  order: number;
  deps: readonly string[];
  stage: string;
  pausedAt: Date | null;
}

/** The frozen repos, or the error met while reading them (which blocks: the freeze check fails closed). */
export type Freezes = { repos: readonly string[] } | { error: string };

export interface AdmissionFlags {
  serialGatePauseEnabled: boolean;
}

/** Precedence: freeze > dependency > active_task > none. */
export type BlockingReason = 'freeze' | 'dependency' | 'active_task' | 'none';

export interface AdmissionCheck {
  admissible: boolean;
  blockingReason: BlockingReason;
  /** The unfinished dependencies, or the earlier active tasks of the repo. */
  blockedBy: string[];
  /** An error was met: the freeze check failed closed or the rest failed open. */
  degraded: boolean;
  error?: string;
}

export const TERMINAL_STAGES: readonly string[] = ['done', 'cancelled'];
/** The stage of a task that has not entered analysis yet. */
export const PENDING_STAGE = 'created';

export const isTerminal = (stage: string) => TERMINAL_STAGES.includes(stage);

/** Active ⇔ stage ∉ {done, cancelled} ∧ not paused (a paused task is active again when the flag is off). */
export function isActive(task: QueueTask, flags: AdmissionFlags): boolean {
  return !isTerminal(task.stage) && (task.pausedAt === null || !flags.serialGatePauseEnabled);
}

/** FIFO by `order`; equal orders fall back to the task id so two tasks never both count as first. */
const comesBefore = (a: QueueTask, b: QueueTask) =>
  a.order < b.order || (a.order === b.order && a.taskId < b.taskId);

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

function frozen(repo: string, freezes: Freezes): { frozen: boolean; error?: string } {
  try {
    if ('error' in freezes) return { frozen: true, error: freezes.error };
    return { frozen: freezes.repos.includes(repo) };
  } catch (error) {
    return { frozen: true, error: message(error) };
  }
}

/**
 * The ONE per-repo serial gate (SPEC §7): admission, checks and the queue snapshot all call it.
 * "No earlier task of its repo is active" [openq]: nor a later one already past the pending
 * stage, so a task registered after a later-ordered one was admitted waits for it.
 */
export function checkAdmission(
  task: QueueTask,
  tasks: readonly QueueTask[],
  freezes: Freezes,
  flags: AdmissionFlags,
): AdmissionCheck {
  const freeze = frozen(task.repo, freezes);
  if (freeze.frozen) {
    const degraded = freeze.error !== undefined;
    return {
      admissible: false,
      blockingReason: 'freeze',
      blockedBy: [],
      degraded,
      ...(degraded ? { error: freeze.error } : {}),
    };
  }
  try {
    const stageOf = new Map(tasks.map((t) => [t.taskId, t.stage]));
    // Pause never bypasses a dependency: only a done dependency counts (an unknown one is not done).
    const pendingDeps = task.deps.filter((dep) => stageOf.get(dep) !== 'done');
    if (pendingDeps.length > 0)
      return { admissible: false, blockingReason: 'dependency', blockedBy: pendingDeps, degraded: false };
    // An earlier active task holds the repo (FIFO), and so does a later one that has already
    // entered: tasks may be registered out of order, and the repo still takes one at a time.
    const holding = tasks
      .filter(
        (t) =>
          t.repo === task.repo &&
          t.taskId !== task.taskId &&
          isActive(t, flags) &&
          (comesBefore(t, task) || t.stage !== PENDING_STAGE),
      )
      .map((t) => t.taskId);
    if (holding.length > 0)
      return { admissible: false, blockingReason: 'active_task', blockedBy: holding, degraded: false };
    return { admissible: true, blockingReason: 'none', blockedBy: [], degraded: false };
  } catch (error) {
    return { admissible: true, blockingReason: 'none', blockedBy: [], degraded: true, error: message(error) };
  }
}

/** Tasks that may enter analysis now, in FIFO order. */
export function nextAdmissions(
  tasks: readonly QueueTask[],
  freezes: Freezes,
  flags: AdmissionFlags,
): string[] {
  return [...tasks]
    .sort((a, b) => (comesBefore(a, b) ? -1 : 1))
    .filter(
      (t) =>
        t.stage === PENDING_STAGE &&
        t.pausedAt === null &&
        checkAdmission(t, tasks, freezes, flags).admissible,
    )
    .map((t) => t.taskId);
}

export type QueueState = 'active' | 'paused' | 'waiting' | 'done' | 'cancelled' | 'admissible';

export interface QueueEntry {
  taskId: string;
  repo: string;
  order: number;
  stage: string;
  state: QueueState;
  blockingReason: BlockingReason;
  blockedBy: string[];
  pausedAt: string | null;
  degraded: boolean;
}

function entry(
  task: QueueTask,
  tasks: readonly QueueTask[],
  freezes: Freezes,
  flags: AdmissionFlags,
): QueueEntry {
  const base = {
    taskId: task.taskId,
    repo: task.repo,
    order: task.order,
    stage: task.stage,
    pausedAt: task.pausedAt?.toISOString() ?? null,
  };
  const plain = (state: QueueState): QueueEntry => ({
    ...base,
    state,
    blockingReason: 'none',
    blockedBy: [],
    degraded: false,
  });
  if (task.stage === 'done' || task.stage === 'cancelled') return plain(task.stage);
  if (task.pausedAt !== null) return plain('paused');
  if (task.stage !== PENDING_STAGE) return plain('active');
  const check = checkAdmission(task, tasks, freezes, flags);
  return {
    ...base,
    state: check.admissible ? 'admissible' : 'waiting',
    blockingReason: check.blockingReason,
    blockedBy: check.blockedBy,
    degraded: check.degraded,
  };
}

/** The `/pipeline/queue` snapshot: every task (of `repo` when given), FIFO order. */
export function queueSnapshot(
  tasks: readonly QueueTask[],
  freezes: Freezes,
  flags: AdmissionFlags,
  repo?: string,
): QueueEntry[] {
  return tasks
    .filter((t) => repo === undefined || t.repo === repo)
    .sort((a, b) => (comesBefore(a, b) ? -1 : 1))
    .map((t) => entry(t, tasks, freezes, flags));
}
