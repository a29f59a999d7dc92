import type { EntityManager } from 'typeorm';
import type { AgentStoryUpsertedDto, StoryArchived, StoryCorrected } from '@openq/contracts';
import { STORY_CONTENT_FIELDS, storyContent, type StoryContent } from '../domain';
import type { FactVersion } from '../store/fact-version';
import { findStory, writeStoryArchived, writeStoryContent, writeStoryUpserted } from '../store/story.store';

/**
 * `agent.story.upserted`: the whole story as the engine holds it. Three column groups, each with its
 * own version (`writeStoryUpserted`): the snapshot follows the newest upsert, `archived` the newest
 * of upserts and archives, the content the newest of upserts and corrections.
 */
export async function projectStoryUpserted(
  manager: EntityManager,
  projectId: string,
  story: AgentStoryUpsertedDto,
  version: FactVersion,
): Promise<void> {
  await writeStoryUpserted(manager, projectId, story, version);
}

/**
 * `story.archived` as a replay re-applies it (live, the archive command wrote the flag with this
 * same version). Order-safe: the newest of the archives and upserts sets the flag. An absent
 * story stays absent, as the command refused it.
 */
export async function projectStoryArchived(
  manager: EntityManager,
  projectId: string,
  archived: StoryArchived,
  version: FactVersion,
): Promise<void> {
  await writeStoryArchived(manager, projectId, archived.storyId, true, version);
}

/**
 * `story.corrected` as a replay re-applies it (live, the correction command itself wrote the
 * content, with this same version — `writeStoryContent` with the event's envelope): the fields
 * the event changed over the story's current content. The replay applies corrections after every
 * upsert, so "current" is the newest content below the correction's version whenever it matters
 * (a newer content makes the write a no-op): what the command saw when facts arrived in order.
 * An absent story (not upserted within the log) stays absent, as the command refused it.
 */
export async function projectStoryCorrected(
  manager: EntityManager,
  projectId: string,
  corrected: StoryCorrected,
  version: FactVersion,
): Promise<void> {
  const story = await findStory(manager, projectId, corrected.storyId);
  if (!story) return;
  const changed = STORY_CONTENT_FIELDS.filter((field) => corrected.changes[field] != null).map((field) => [
    field,
    corrected.changes[field],
  ]);
  const content: StoryContent = {
    ...storyContent(story),
    ...(Object.fromEntries(changed) as Partial<StoryContent>),
  };
  await writeStoryContent(manager, projectId, corrected.storyId, content, version);
}
