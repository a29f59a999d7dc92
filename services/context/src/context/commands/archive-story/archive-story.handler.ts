import type { EntityManager } from 'typeorm';
import {
  OpenqEvent,
  isRefusal,
  type ArchiveStoryCommand,
  type ArchiveStoryReply,
  type Refusal,
  type StoryArchived,
} from '@openq/contracts';
import type { OutboxWriter } from '@openq/messaging';
import { decideStoryArchive } from '../../domain';
import { versionOf } from '../../projections/fact-version';
import { writeStoryArchived } from '../../projections/story.projector';
import { findStory } from '../../queries/story-row';
import { correctionActor } from '../correct-story/correct-story.handler';

/**
 * SPEC §11.3 for both doors (user and agent/po), as the correction (§6.4): load the story under
 * a lock, let the domain decide (drafts only), then set `archived` and queue `story.archived` in
 * the same transaction. The flag's version becomes the archive's own (`now`, its event id), the
 * one a replay gives it (`projectStoryArchived`), so an older upsert delivered afterwards leaves
 * it alone. Already archived: 200 again, nothing written, no second event.
 */
export async function archiveStory(
  manager: EntityManager,
  outbox: OutboxWriter,
  cmd: ArchiveStoryCommand,
  now: Date,
): Promise<ArchiveStoryReply | Refusal> {
  const actor = correctionActor(cmd.actor);
  if (isRefusal(actor)) return actor;
  const story = await findStory(manager, cmd.projectId, cmd.storyId, { forUpdate: true });
  const decision = decideStoryArchive({ storyId: cmd.storyId, actor }, story);
  if (isRefusal(decision)) return decision;
  if (decision.event) {
    const envelope = outbox.event<StoryArchived>(OpenqEvent.StoryArchived, cmd.projectId, decision.event, {
      occurredAt: now,
    });
    await writeStoryArchived(manager, cmd.projectId, cmd.storyId, true, versionOf(envelope));
  }
  return { archived: true, storyId: cmd.storyId };
}
