import type { BlockedWork, BlockingQuestion, Gate } from '@openq/contracts';

/** A gate cycle parked on the user's decision, with the questions still open (`waiting_on`). */
export interface ParkedOnQuestions {
  taskId: string;
  gate: Gate;
  questionIds: readonly string[];
  /** When it parked, or last changed while parked (ISO-8601). */
  since: string;
}

/** A pipeline task as the `/pipeline/queue` snapshot judges it (the one admission predicate). */
export interface QueuedTask {
  taskId: string;
  repo: string;
  /** Its open analyst questions while in Needs Input (empty otherwise). */
  questionIds: readonly string[];
  pausedAt: string | null;
  /** The earlier active tasks or unfinished dependencies that keep it out of analysis. */
  blockedBy: readonly string[];
}

/**
 * [openq] issue #18 what waits on each open question, from the gates service's own projections:
 * every cycle parked on it (`gate`), every task whose analysis waits on it in Needs Input
 * (`analysis`), and every task kept out of analysis by such a task (`queued`: the per-repo serial
 * gate when the Needs Input task was not auto-paused, or a dependency on it). Only questions that
 * block something are listed; blocking most first, then waiting longest, then by id (stable).
 */
export function blockingQuestions(
  parked: readonly ParkedOnQuestions[],
  tasks: readonly QueuedTask[],
): BlockingQuestion[] {
  const blocks = new Map<string, BlockedWork[]>();
  const add = (questionId: string, work: BlockedWork) => {
    const list = blocks.get(questionId);
    if (list) list.push(work);
    else blocks.set(questionId, [work]);
  };
  for (const cycle of parked) {
    for (const q of new Set(cycle.questionIds))
      add(q, { kind: 'gate', taskId: cycle.taskId, gate: cycle.gate, since: cycle.since });
  }
  for (const task of tasks) {
    if (task.questionIds.length === 0) continue;
    const behind = tasks.filter((t) => t.blockedBy.includes(task.taskId));
    for (const q of new Set(task.questionIds)) {
      add(q, { kind: 'analysis', taskId: task.taskId, repo: task.repo, since: task.pausedAt });
      for (const t of behind)
        add(q, {
          kind: 'queued',
          taskId: t.taskId,
          repo: t.repo,
          behindTaskId: task.taskId,
          since: task.pausedAt,
        });
    }
  }
  return [...blocks.entries()]
    .map(([questionId, work]) => ({ questionId, blocks: work, since: earliest(work) }))
    .sort(heaviestFirst);
}

/** ISO-8601 instants of one writer (`toISOString`) order as strings. */
function earliest(work: readonly BlockedWork[]): string | null {
  let min: string | null = null;
  for (const { since } of work) if (since !== null && (min === null || since < min)) min = since;
  return min;
}

function heaviestFirst(a: BlockingQuestion, b: BlockingQuestion): number {
  if (a.blocks.length !== b.blocks.length) return b.blocks.length - a.blocks.length;
  if (a.since !== b.since) {
    if (a.since === null) return 1;
    if (b.since === null) return -1;
    return a.since < b.since ? -1 : 1;
  }
  return a.questionId < b.questionId ? -1 : a.questionId > b.questionId ? 1 : 0;
}
