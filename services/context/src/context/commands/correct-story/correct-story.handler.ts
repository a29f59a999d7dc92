import type { EntityManager } from 'typeorm';
import {
  isRefusal,
  refusal,
  type CorrectStoryCommand,
  type CorrectStoryReply,
  type Refusal,
} from '@openq/contracts';
import type { OutboxWriter } from '@openq/messaging';
import { ContextTransaction } from '../../context-transaction';
import type { CitedQuestion, CorrectionActor, TaskStatus } from '../../domain';
import type { QuestionStatusSource } from '../../question-owner';
import { findCitedQuestion } from '../../queries/open-questions.query';
import { findStory } from '../../queries/story-row';

/**
 * SPEC §6.4 for both doors (user and agent/po): load the facts under a lock on the story, then
 * the story decider decides through the decider kit (`ContextTransaction`), which writes the
 * corrected content and queues `story.corrected` in the same transaction. The content's version
 * becomes the correction's own (`now`, its event id), so an older `agent.story.upserted` delivered
 * afterwards leaves it alone. The cited question comes from `citedQuestionBefore`, looked up
 * before the transaction (no call while the story is locked).
 */
export async function correctStory(
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
      taskStatuses: story ? await taskStatuses(manager, cmd.projectId, story.storyId, story.taskIds) : [],
      citedQuestion: questionId ? cited : null,
    },
    story,
    now,
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
export async function citedQuestionBefore(
  manager: EntityManager,
  owner: QuestionStatusSource,
  projectId: string,
  questionId: string | null | undefined,
): Promise<CitedQuestion | null> {
  if (!questionId) return null;
  const local = await findCitedQuestion(manager, projectId, questionId);
  if (local?.answered) return local;
  return owner.citedQuestion(projectId, questionId);
}

/** Only two doors exist: a user, or the PO agent (the internal route); archives too (§11.3). */
export function correctionActor(actor: CorrectStoryCommand['actor']): CorrectionActor | Refusal {
  if (actor.kind === 'user') return { kind: 'user', id: actor.id };
  if (actor.id === 'po') return { kind: 'agent', id: 'po' };
  return refusal(400, 'corpo_invalido', 'actor: only agent/po corrects a story on behalf of an agent');
}

/**
 * The statuses of the story's tasks: those its `taskIds` lists and those whose `agent.task.status`
 * named it. Both count, so a task moving between stories blocks a correction of either while it
 * runs — refusing is the safe side of a doubt.
 */
async function taskStatuses(
  manager: EntityManager,
  projectId: string,
  storyId: string,
  taskIds: readonly string[],
): Promise<TaskStatus[]> {
  const rows: { status: TaskStatus }[] = await manager.query(
    `SELECT status FROM context_task
      WHERE project_id = $1 AND status IS NOT NULL AND (story_id = $2 OR task_id = ANY($3::text[]))`,
    [projectId, storyId, [...taskIds]],
  );
  return rows.map((row) => row.status);
}
