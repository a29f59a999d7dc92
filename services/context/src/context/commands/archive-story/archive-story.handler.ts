import type { EntityManager } from 'typeorm';
import { isRefusal, type ArchiveStoryCommand, type ArchiveStoryReply, type Refusal } from '@openq/contracts';
import type { OutboxWriter } from '@openq/messaging';
import { ContextTransaction } from '../../context-transaction';
import { findStory } from '../../queries/story-row';
import { correctionActor } from '../correct-story/correct-story.handler';

/**
 * SPEC §11.3 for both doors (user and agent/po), as the correction (§6.4): load the story under
 * a lock, then the story decider decides (drafts only) through the decider kit, which sets
 * `archived` and queues `story.archived` in the same transaction. The flag's version becomes the
 * archive's own (`now`, its event id), the one a replay gives it (`projectStoryArchived`), so an
 * older upsert delivered afterwards leaves it alone. Already archived: 200 again, nothing
 * written, no second event.
 */
export async function archiveStory(
  manager: EntityManager,
  outbox: OutboxWriter,
  cmd: ArchiveStoryCommand,
  now: Date,
): Promise<ArchiveStoryReply | Refusal> {
  const actor = correctionActor(cmd.actor);
  if (isRefusal(actor)) return actor;
  const tx = new ContextTransaction(manager, outbox, cmd.projectId, now);
  const story = await findStory(manager, cmd.projectId, cmd.storyId, { forUpdate: true });
  const decided = await tx.stories.decide({ type: 'archive', storyId: cmd.storyId, actor }, story, now);
  if (isRefusal(decided)) return decided;
  return { archived: true, storyId: cmd.storyId };
}
