import type { QuestionAnswered } from '@openq/contracts';
import type { PipelineTransaction } from '../pipeline-transaction';

/**
 * `question.answered`: remembered for every question (its link to a task may commit after the
 * answer arrives); for an analyst question, the last answer of the task unparks it and relaunches
 * the analyst once.
 */
export async function recordAnswer(tx: PipelineTransaction, data: QuestionAnswered): Promise<void> {
  const taskId = await tx.store.recordAnswer(tx.projectId, data.questionId, tx.now);
  if (!taskId) return;
  const stored = await tx.store.load(tx.projectId, taskId);
  if (!stored) return;
  await tx.apply({ type: 'questionAnswered', data: { questionId: data.questionId } }, stored.task);
}
