import type { AgentTaskCreatedDto } from '@openq/contracts';
import { admitNext } from '../admit-next/admit-next.handler';
import type { PipelineTransaction } from '../../pipeline-transaction';

/**
 * `agent.task.created`: the task joins its repo's queue (once: a task already known keeps its
 * registration), then every task the serial gate lets in is admitted.
 */
export async function registerTask(tx: PipelineTransaction, data: AgentTaskCreatedDto): Promise<void> {
  const stored = await tx.store.load(tx.projectId, data.taskId);
  const { taskId, repo, order, deps, labels } = data;
  await tx.tasks.decideAccepted(
    { type: 'register', data: { projectId: tx.projectId, taskId, repo, order, deps, labels } },
    stored?.task ?? null,
    tx.now,
  );
  await admitNext(tx);
}
