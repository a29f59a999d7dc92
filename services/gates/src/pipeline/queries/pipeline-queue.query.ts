import type { DataSource } from 'typeorm';
import type {
  PauseSource,
  PipelineQueueCommand,
  PipelineQueueSnapshot,
  PipelineQueueTask,
  PipelineTaskState,
  TaskStatus,
} from '@openq/contracts';
import { gateInputs } from '../commands/admit-next/admit-next.handler';
import { freezeView } from '../commands/freeze-repo/freeze-repo.handler';
import { queueSnapshot, type QueueState } from '../domain/admission';
import type { PipelineFlags } from '../pipeline.flags';
import { PipelineTaskStore, type StoredTask } from '../store/pipeline-task.store';

/**
 * "Admissible" is a moment, not a place in the queue: admission takes such a task in on the
 * next pipeline event or sweep. Until then it waits, with nothing blocking it.
 */
const CONTRACT_STATE: Record<QueueState, PipelineTaskState> = {
  active: 'active',
  paused: 'paused',
  waiting: 'waiting',
  admissible: 'waiting',
  done: 'done',
  cancelled: 'cancelled',
};

function openQuestions({ task }: StoredTask): string[] {
  if (!task.needsInput) return [];
  return task.questionIds.filter((id) => !task.answeredQuestionIds.includes(id));
}

/**
 * `gates.pipeline-queue`: every task of the project (of `repo` when asked), judged by the same
 * predicate admission uses, over the same inputs (the tasks, their dependencies, the freezes).
 */
export async function pipelineQueue(
  dataSource: DataSource,
  flags: PipelineFlags,
  cmd: PipelineQueueCommand,
): Promise<PipelineQueueSnapshot> {
  // A transaction: the freeze read protects itself with a savepoint.
  return dataSource.transaction(async (manager) => {
    const repo = cmd.repo ?? null;
    const { stored, freezes } = await gateInputs(new PipelineTaskStore(manager), cmd.projectId, {
      repo,
      withFinished: true,
    });
    const byId = new Map(stored.map((s) => [s.task.taskId, s]));
    const entries = queueSnapshot(
      stored.map((s) => s.task),
      freezes,
      flags.admission,
      repo ?? undefined,
    );
    const tasks = entries.flatMap((entry): PipelineQueueTask[] => {
      const s = byId.get(entry.taskId);
      if (!s) return [];
      return [
        {
          taskId: entry.taskId,
          repo: entry.repo,
          order: entry.order,
          deps: [...s.task.deps],
          labels: [...s.task.labels],
          stage: entry.stage,
          status: s.status as TaskStatus | null,
          state: CONTRACT_STATE[entry.state],
          pausedAt: entry.pausedAt,
          pauseSource: s.task.pauseSource as PauseSource | null,
          blockingReason: entry.blockingReason,
          blockedBy: entry.blockedBy,
          questionIds: openQuestions(s),
        },
      ];
    });
    // The contract orders by repo, then FIFO (the domain's order inside each repo is kept).
    tasks.sort((a, b) => (a.repo < b.repo ? -1 : a.repo > b.repo ? 1 : 0));
    // A failed freeze read freezes every repo shown (fail closed), and says so here.
    const frozen = 'repos' in freezes ? freezes.repos : [...new Set(tasks.map((t) => t.repo))].sort();
    const frozenRepos = frozen.filter((r) => repo === null || r === repo);
    // Who froze each repo and why (none when the read failed: `frozenRepos` says all are frozen).
    const freezeViews =
      'records' in freezes ? freezes.records.filter((f) => repo === null || f.repo === repo) : [];
    return { repo, tasks, total: tasks.length, frozenRepos, freezes: freezeViews.map(freezeView) };
  });
}
