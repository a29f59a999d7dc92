import type { DataSource, EntityManager } from 'typeorm';
import { isRefusal, type CorrectStoryCommand, type CorrectStoryReply, type Refusal } from '@openq/contracts';
import { withOutbox, type OutboxWriter } from '@openq/messaging';
import type { QuestionStatusSource } from '@openq/platform';
import { ContextTransaction } from '../../context-transaction';
import { correctionActor, type CitedQuestion } from '../../domain';
import { findCitedQuestion } from '../../queries/open-questions.query';
import { findStory, storyTaskStatuses } from '../../store/story.store';

/**
 * SPEC §6.4 for both doors (user and agent/po). First, outside any transaction, the cited question
 * (`citedQuestionBefore`: the owner may be asked, §11.2, and nothing is held while it answers);
 * then, in one transaction, the facts are loaded under a lock on the story and the story decider
 * decides through the decider kit (`ContextTransaction`), which writes the corrected content and
 * queues `story.corrected` together. The content's version becomes the correction's own (`now`,
 * its event id), so an older `agent.story.upserted` delivered afterwards leaves it alone.
 */
export async function correctStory(
  dataSource: DataSource,
  owner: QuestionStatusSource,
  cmd: CorrectStoryCommand,
  now?: Date,
): Promise<CorrectStoryReply | Refusal> {
  const cited = await citedQuestionBefore(dataSource.manager, owner, cmd.projectId, cmd.questionId);
  // The correction's instant is taken in its transaction, once the owner answered.
  return withOutbox(dataSource, {}, (manager, outbox) =>
    correctUnderLock(manager, outbox, cmd, now ?? new Date(), cited),
  );
}

async function correctUnderLock(
  manager: EntityManager,
  outbox: OutboxWriter,
  cmd: CorrectStoryCommand,
  now: Date,
  cited: CitedQuestion | null,
): Promise<CorrectStoryReply | Refusal> {
  const actor = correctionActor(cmd.actor);
  if (isRefusal(actor)) return actor;
  const tx = new ContextTransaction(manager, outbox, cmd.projectId, now);
  const story = await findStory(manager, cmd.projectId, cmd.storyId, { forUpdate: true });
  const questionId = cmd.questionId ?? null;
  const decided = await tx.stories.decide(
    {
      type: 'correct',
      storyId: cmd.storyId,
      questionId,
      changes: cmd.changes,
      actor,
      taskStatuses: story
        ? await storyTaskStatuses(manager, cmd.projectId, story.storyId, story.taskIds)
        : [],
      citedQuestion: questionId ? cited : null,
    },
    story,
    tx.now,
  );
  if (isRefusal(decided)) return decided;
  return { applied: true, storyId: cmd.storyId };
}

/**
 * §11.2 read-your-writes: the read model is enough when it shows the question answered (an answer
 * is never taken back); unknown or still open here may only mean that `question.declared` /
 * `question.answered` has not arrived yet, so the owner's log decides before anything is refused.
 * Called before the correction's transaction, with a manager outside any transaction: the owner's
 * reply (up to the RPC timeout) keeps no pooled connection and no story lock waiting. What it says
 * stays true under the lock: an answer is never taken back, and an answer committed after the
 * call is one the caller could not have been told of when it sent the correction.
 */
async function citedQuestionBefore(
  manager: EntityManager,
  owner: QuestionStatusSource,
  projectId: string,
  questionId: string | null | undefined,
): Promise<CitedQuestion | null> {
  if (!questionId) return null;
  const local = await findCitedQuestion(manager, projectId, questionId);
  if (local?.answered) return local;
  const items = await owner.statusOf(projectId, [questionId]);
  const item = items.find((i) => i.questionId === questionId);
  if (!item || item.status === 'absent') return null;
  return { questionId, answered: item.status === 'answered' };
}
