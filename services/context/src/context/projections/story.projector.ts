import type { EntityManager } from 'typeorm';
import type { AgentStoryUpsertedDto, StoryArchived, StoryCorrected } from '@openq/contracts';
import { STORY_CONTENT_FIELDS, storyContent, type StoryContent } from '../domain';
import { findStory } from '../queries/story-row';
import { olderThan, type FactVersion } from './fact-version';

/**
 * `agent.story.upserted`: the whole story as the engine holds it. Three column groups, each with its
 * own version: the snapshot (status, rules, tasks) follows the newest upsert; `archived` follows
 * the newest of upserts and this service's archives (`story.archived`); the content
 * (title, FR, NFR, DoD, DoR) follows the newest of upserts and this service's corrections, so an
 * older upsert delivered late never undoes a correction, and a newer one (the engine having
 * applied it, or edited further) replaces it.
 */
export async function projectStoryUpserted(
  manager: EntityManager,
  projectId: string,
  story: AgentStoryUpsertedDto,
  version: FactVersion,
): Promise<void> {
  const snapshot = [story.status, story.archived, json(story.regras), json(story.taskIds)];
  const content = [story.title, json(story.rf), json(story.rnf), json(story.dod), json(story.dor)];
  const inserted: unknown[] = await manager.query(
    `INSERT INTO context_story (project_id, story_id, status, archived, regras, task_ids, snapshot_at, snapshot_event_id,
                                title, rf, rnf, dod, dor, content_at, content_event_id, archived_at, archived_event_id)
     VALUES ($1, $2, $3, $4, $5::jsonb, $6::jsonb, $7, $8, $9, $10::jsonb, $11::jsonb, $12::jsonb, $13::jsonb, $7, $8, $7, $8)
     ON CONFLICT (project_id, story_id) DO NOTHING RETURNING 1`,
    [projectId, story.storyId, ...snapshot, version.at, version.eventId, ...content],
  );
  if (inserted.length > 0) return;
  await manager.query(
    `UPDATE context_story SET status = $3, regras = $4::jsonb, task_ids = $5::jsonb,
            snapshot_at = $6, snapshot_event_id = $7
      WHERE project_id = $1 AND story_id = $2 AND ${olderThan('snapshot_at', 'snapshot_event_id', 6, 7)}`,
    [
      projectId,
      story.storyId,
      story.status,
      json(story.regras),
      json(story.taskIds),
      version.at,
      version.eventId,
    ],
  );
  await writeStoryArchived(manager, projectId, story.storyId, story.archived, version);
  await writeStoryContent(manager, projectId, story.storyId, story, version);
}

/** Sets the story's `archived` flag when `version` is newer than the flag's; the archive's write too. */
export async function writeStoryArchived(
  manager: EntityManager,
  projectId: string,
  storyId: string,
  archived: boolean,
  version: FactVersion,
): Promise<void> {
  await manager.query(
    `UPDATE context_story SET archived = $3, archived_at = $4, archived_event_id = $5
      WHERE project_id = $1 AND story_id = $2 AND ${olderThan('archived_at', 'archived_event_id', 4, 5)}`,
    [projectId, storyId, archived, version.at, version.eventId],
  );
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

/** Replaces the story's content when `version` is newer than the content's; the correction's write too. */
export async function writeStoryContent(
  manager: EntityManager,
  projectId: string,
  storyId: string,
  content: StoryContent,
  version: FactVersion,
): Promise<void> {
  await manager.query(
    `UPDATE context_story SET title = $3, rf = $4::jsonb, rnf = $5::jsonb, dod = $6::jsonb, dor = $7::jsonb,
            content_at = $8, content_event_id = $9
      WHERE project_id = $1 AND story_id = $2 AND ${olderThan('content_at', 'content_event_id', 8, 9)}`,
    [
      projectId,
      storyId,
      content.title,
      json(content.rf),
      json(content.rnf),
      json(content.dod),
      json(content.dor),
      version.at,
      version.eventId,
    ],
  );
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

function json(value: unknown): string {
  return JSON.stringify(value);
}
