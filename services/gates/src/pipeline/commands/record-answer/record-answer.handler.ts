import type { QuestionAnswered, QuestionWithdrawn } from '@openq/contracts';
import type { EventContext } from '@openq/messaging';
import type { PipelineTransaction } from '../../pipeline-transaction';

/**
 * `question.answered`: remembered for every question (its link to a task may commit after the
 * answer arrives); for an analyst question, the last answer of the task unparks it and relaunches
 * the analyst once.
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
export async function recordAnswer(
  tx: PipelineTransaction,
  data: Pick<QuestionAnswered | QuestionWithdrawn, 'questionId'>,
  afterHandlers: EventContext['afterHandlers'],
): Promise<void> {
  // Sent ahead, read after the message's other handlers (the gate cycle's) sent theirs: the answer
  // is remembered in the same round trip as their reads, and one that concerns no task costs none.
  const { taskId: linked } = await tx.store.recordAnswer(tx.projectId, data.questionId, tx.now);
  afterHandlers(async () => {
    const taskId = await linked;
    if (!taskId) return;
    await tx.lockProject();
    const stored = await tx.store.load(tx.projectId, taskId);
    if (!stored) return;
    await tx.tasks.decideAccepted(
      { type: 'questionAnswered', data: { questionId: data.questionId } },
      stored.task,
      tx.now,
    );
  });
}
