import type { EventContext } from '@openq/messaging';
import type { PipelineTransaction } from '../../pipeline-transaction';
import { linkedTask } from '../../store/pipeline-task.store';

/**
 * `question.answered`, a batch's at once (a batch of one is one answer): remembered for every
 * question (its link to a task may commit after the answer arrives); for an analyst question, the
 * last answer of the task unparks it and relaunches the analyst once.
 *
 * The project is locked only for an analyst question: most answers (QA's, the askers') concern no
 * pipeline task, and locking the project for each would serialise every answer of a project in
 * this service. An answer and the link of its question meet on the question's row (both upsert
 * it): whichever comes second sees the other — the link sees `answered_at`, the answer `task_id`.
 *
 * §11.5 `question.withdrawn` comes here too: Needs Input waits for the user to settle the
 * analyst's questions, and a withdrawn question needs the user no more, so for the pipeline it is
 * settled like an answered one (its row's `answered_at` is set when the withdrawal is heard): the last
 * question settled, answered or withdrawn, relaunches the analyst once.
 */
export async function recordAnswers(
  settled: readonly { tx: PipelineTransaction; questionId: string }[],
  afterHandlers: EventContext['afterHandlers'],
): Promise<void> {
  const first = settled[0];
  if (!first) return;
  // Sent ahead, read after the messages' other handlers (the gate cycles') sent theirs: the answers
  // are remembered in the same round trip as their reads, and those that concern no task cost none.
  const { tasks } = await first.tx.store.recordAnswers(
    settled.map(({ tx, questionId }) => ({ projectId: tx.projectId, questionId, answeredAt: tx.now })),
  );
  afterHandlers(async () => {
    const linked = await tasks;
    for (const { tx, questionId } of settled) {
      const taskId = linked.get(linkedTask(tx.projectId, questionId));
      if (!taskId) continue;
      await tx.lockProject();
      const stored = await tx.store.load(tx.projectId, taskId);
      if (!stored) continue;
      await tx.tasks.decideAccepted({ type: 'questionAnswered', data: { questionId } }, stored.task, tx.now);
    }
  });
}
