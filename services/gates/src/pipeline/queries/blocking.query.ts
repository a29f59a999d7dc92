import type { DataSource } from 'typeorm';
import {
  BLOCKING_QUESTIONS_MAX,
  type BlockingQuestionsCommand,
  type BlockingQuestionsReply,
  type Gate,
} from '@openq/contracts';
import { blockingQuestions } from '../domain/blocking';
import type { PipelineFlags } from '../pipeline.flags';
import { pipelineQueue } from './pipeline-queue.query';

/**
 * [openq] issue #18 `gates.blocking`: the project's open questions that block work, and what,
 * from this service's own projections: the cycles parked on a user decision (`waiting_on`, the
 * questions still open, and `updated_at`, the instant the park last changed, as "Waiting for you"
 * orders them) and the `/pipeline/queue` snapshot (the one admission predicate says which tasks
 * are kept out of analysis by a Needs Input task). The gateway puts these first in the open list.
 */
export async function blockingQuery(
  dataSource: DataSource,
  flags: PipelineFlags,
  cmd: BlockingQuestionsCommand,
): Promise<BlockingQuestionsReply> {
  const [rows, snapshot] = await Promise.all([
    dataSource.query(
      `SELECT task_id, gate, waiting_on, updated_at FROM gate_cycle
        WHERE project_id = $1 AND state = 'parked' AND parked_reason = 'user_decision'
        ORDER BY task_id, gate`,
      [cmd.projectId],
    ) as Promise<{ task_id: string; gate: Gate; waiting_on: string[]; updated_at: Date }[]>,
    pipelineQueue(dataSource, flags, { projectId: cmd.projectId }),
  ]);
  const parked = rows.map((r) => ({
    taskId: r.task_id,
    gate: r.gate,
    questionIds: r.waiting_on,
    since: new Date(r.updated_at).toISOString(),
  }));
  const tasks = snapshot.tasks
    .filter((t) => t.state !== 'done' && t.state !== 'cancelled')
    .map((t) => ({
      taskId: t.taskId,
      repo: t.repo,
      questionIds: t.questionIds,
      pausedAt: t.pausedAt,
      blockedBy: t.blockedBy,
    }));
  const items = blockingQuestions(parked, tasks);
  return { items: items.slice(0, BLOCKING_QUESTIONS_MAX), total: items.length };
}
