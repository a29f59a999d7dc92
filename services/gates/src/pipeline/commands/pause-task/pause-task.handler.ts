import { Logger } from '@nestjs/common';
import { isRefusal, type PipelinePauseReply, type PipelineTaskCommand, type Refusal } from '@openq/contracts';
import { admitNext } from '../admit-next/admit-next.handler';
import type { PipelineTransaction } from '../../pipeline-transaction';

const logger = new Logger('pipeline:operator');

/**
 * An operator pauses or resumes a task (source `operator`; 404 / 409 refusals from the domain).
 * A pause frees the task's place in the serial gate, so the next task of its repo may enter.
 */
export async function pauseOrResume(
  tx: PipelineTransaction,
  cmd: PipelineTaskCommand,
  type: 'pause' | 'resume',
): Promise<PipelinePauseReply | Refusal> {
  const stored = await tx.store.load(tx.projectId, cmd.taskId);
  const decided = await tx.tasks.decide({ type }, stored?.task ?? null, tx.now);
  if (isRefusal(decided)) return decided;
  logger.log(`project ${tx.projectId}: ${cmd.userId} ${type}d ${cmd.taskId}`);
  if (type === 'pause') await admitNext(tx);
  const task = decided.state;
  return {
    taskId: cmd.taskId,
    pausedAt: task?.pausedAt?.toISOString() ?? null,
    pauseSource: task?.pauseSource ?? null,
    changed: decided.events.length > 0,
  };
}
