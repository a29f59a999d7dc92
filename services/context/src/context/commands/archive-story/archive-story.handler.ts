import type { DataSource } from 'typeorm';
import { isRefusal, type ArchiveStoryCommand, type ArchiveStoryReply, type Refusal } from '@openq/contracts';
import { withOutbox } from '@openq/messaging';
import { ContextTransaction } from '../../context-transaction';
import { correctionActor } from '../../domain';
import { findStory } from '../../store/story.store';

/**
 * SPEC §11.3 for both doors (user and agent/po), as the correction (§6.4): in one transaction,
 * load the story under a lock, then the story decider decides (drafts only) through the decider kit, which sets
 * `archived` and queues `story.archived` in the same transaction. The flag's version becomes the
 * archive's own (`now`, its event id), the one a replay gives it (`projectStoryArchived`), so an
 * older upsert delivered afterwards leaves it alone. Already archived: 200 again, nothing
 * written, no second event.
 */
export function archiveStory(
  dataSource: DataSource,
  cmd: ArchiveStoryCommand,
  now?: Date,
): Promise<ArchiveStoryReply | Refusal> {
  return withOutbox(dataSource, {}, async (manager, outbox) => {
    const actor = correctionActor(cmd.actor);
    if (isRefusal(actor)) return actor;
    const tx = new ContextTransaction(manager, outbox, cmd.projectId, now ?? new Date());
    const story = await findStory(manager, cmd.projectId, cmd.storyId, { forUpdate: true });
    const decided = await tx.stories.decide({ type: 'archive', storyId: cmd.storyId, actor }, story, tx.now);
    if (isRefusal(decided)) return decided;
    return { archived: true, storyId: cmd.storyId };
  });
}
