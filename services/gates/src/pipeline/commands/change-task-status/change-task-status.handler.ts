import { Logger } from '@nestjs/common';
import type { AgentTaskStatusDto } from '@openq/contracts';
import { admitNext } from '../admit-next/admit-next.handler';
import type { PipelineTransaction } from '../../pipeline-transaction';

const logger = new Logger('pipeline:status');

/**
 * `agent.task.status`: stage / status moves. Done or cancelled frees the repo (and its
 * dependants elsewhere); back to In Progress in analysis unparks and relaunches the analyst once.
 */
export async function changeTaskStatus(tx: PipelineTransaction, data: AgentTaskStatusDto): Promise<void> {
  const stored = await tx.store.load(tx.projectId, data.taskId);
  if (!stored) {
    logger.debug(`project ${tx.projectId}: status of ${data.taskId}, not a pipeline task; ignored`);
    return;
  }
  if (data.status) await tx.store.recordStatus(tx.projectId, data.taskId, data.status);
  const change = {
    ...(data.stage ? { stage: data.stage } : {}),
    ...(data.status ? { status: data.status } : {}),
  };
  await tx.tasks.decideAccepted({ type: 'statusChanged', data: change }, stored.task, tx.now);
  await admitNext(tx);
}
