import { isRefusal, type QuestionAnswered } from '@openq/contracts';
import type { GateTransaction } from '../../gate-transaction';
import { answerToResumeHistogram } from '../../gate-metrics';

/**
 * `question.answered` (by click or by agent: the same event). Remembers the answer, then tells
 * every cycle parked on the question; the last answer a cycle waits on resumes it
 * (`gate.resumed`, trigger `answer`). Runs under the question's lock, like the verdict's link.
 */
export async function hearAnswer(
  tx: GateTransaction,
  projectId: string,
  data: QuestionAnswered,
  now: Date,
): Promise<void> {
  const { questionId, decisionEventId, answeredAt } = data;
  await tx.answers.lockAndRecord(projectId, questionId, decisionEventId, answeredAt);
  for (const cycle of await tx.cycles.lockWaitingOn(projectId, questionId)) {
    const decided = await tx.decide(
      { type: 'questionAnswered', data: { questionId, decisionEventId } },
      cycle,
      now,
    );
    if (!isRefusal(decided) && decided.events.some((e) => e.type === 'gate.resumed'))
      answerToResumeHistogram().observe(
        { gate: cycle.gate },
        Math.max(0, (now.getTime() - Date.parse(answeredAt)) / 1000),
      );
  }
}
