import type { QuestionWithdrawn } from '@openq/contracts';
import type { GateTransaction } from '../../gate-transaction';

/**
 * §11.5 `question.withdrawn`: remembered (a verdict that links the question later does not wait
 * on it), then told to every cycle parked on the question; when it was the last open question a
 * cycle waited on, the cycle resumes (`gate.resumed`, trigger `withdrawn`). Runs under the
 * question's lock, like an answer and the verdict's link, so none of them misses another.
 */
export async function hearWithdrawal(
  tx: GateTransaction,
  projectId: string,
  data: QuestionWithdrawn,
  now: Date,
): Promise<void> {
  const { questionId, withdrawnAt } = data;
  await tx.answers.lock(projectId, [questionId]);
  await tx.answers.recordWithdrawal(projectId, questionId, withdrawnAt);
  for (const { cycle } of await tx.cycles.lockWaitingOn([{ projectId, questionId }])) {
    await tx.decide({ type: 'questionWithdrawn', data: { questionId } }, cycle, now);
  }
}
