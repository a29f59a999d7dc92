import { isRefusal, type QuestionAnswered } from '@openq/contracts';
import type { OutboxWriter } from '@openq/messaging';
import type { GateTransaction } from '../../gate-transaction';
import { answerToResumeHistogram } from '../../gate-metrics';
import { cycleKeyOf } from '../../store/gate-cycle.store';

/** One `question.answered` of a batch: its project, its data, and its message's own outbox (the transaction's if none). */
export interface AnswerHeard {
  projectId: string;
  data: QuestionAnswered;
  outbox?: OutboxWriter;
}

/**
 * `question.answered` (by click or by agent: the same event), a batch of them at once (issue #29:
 * a batch of one is one answer). Remembers the answers under their questions' locks, like the
 * verdict's link; then tells every cycle parked on each question, in the batch's order (each
 * subject's stream order), as if each answer had had a transaction of its own: the last answer a
 * cycle waits on resumes it (`gate.resumed`, trigger `answer`), with that answer's correlation.
 * One statement each for the answers, the cycles' look-up and lock, the cycles' writes and the
 * history, whatever the batch's size.
 */
export async function hearAnswers(
  tx: GateTransaction,
  answers: readonly AnswerHeard[],
  now: Date,
): Promise<void> {
  await tx.answers.lockAndRecord(
    answers.map(({ projectId, data }) => ({
      projectId,
      questionId: data.questionId,
      decisionEventId: data.decisionEventId,
      answeredAt: data.answeredAt,
    })),
  );
  const waiting = await tx.cycles.lockWaitingOn(
    answers.map(({ projectId, data }) => ({ projectId, questionId: data.questionId })),
  );
  if (waiting.length === 0) return;
  const batch = tx.batch(new Map(waiting.map(({ cycle }) => [cycleKeyOf(cycle), cycle])));
  const decided = [];
  for (const { projectId, data, outbox } of answers) {
    const { questionId, decisionEventId, answeredAt } = data;
    for (const { cycle, waitingOn } of waiting) {
      if (cycle.projectId !== projectId || !waitingOn.includes(questionId)) continue;
      const entry = batch.decide(
        cycleKeyOf(cycle),
        { type: 'questionAnswered', data: { questionId, decisionEventId } },
        now,
        outbox,
      );
      if (!isRefusal(entry)) decided.push({ entry, gate: cycle.gate, answeredAt });
    }
  }
  await batch.commit();
  for (const { entry, gate, answeredAt } of decided)
    if (entry.stored?.events.some((e) => e.type === 'gate.resumed'))
      answerToResumeHistogram().observe(
        { gate },
        Math.max(0, (now.getTime() - Date.parse(answeredAt)) / 1000),
      );
}
