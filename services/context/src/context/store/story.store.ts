import type { EntityManager } from 'typeorm';
import type { AgentStoryUpsertedDto } from '@openq/contracts';
import type { Story, StoryContent, TaskStatus } from '../domain';
import { olderThan, type FactVersion } from './fact-version';

/**
 * The story's row (`context_story`), the one aggregate the context changes itself: every statement
 * on it. Written by the engine's upserts (`story.projector.ts`) and by the story decider's slice
 * (`context-transaction.ts`: corrections and archives), each column group under its own version.
 */
interface StoryRow {
  story_id: string;
  status: Story['status'];
  archived: boolean;
  regras: string[];
  task_ids: string[];
  title: string;
  rf: string[];
  rnf: string[];
  dod: string[];
  dor: string[];
}

export interface StoredStory extends Story {
  taskIds: string[];
}

const STORY_COLUMNS = 'story_id, status, archived, regras, task_ids, title, rf, rnf, dod, dor';

/** One story of the project; `forUpdate` holds it until the transaction ends (corrections, archives). */
export async function findStory(
  manager: EntityManager,
  projectId: string,
  storyId: string,
  options: { forUpdate?: boolean } = {},
): Promise<StoredStory | null> {
  const rows: StoryRow[] = await manager.query(
    `SELECT ${STORY_COLUMNS} FROM context_story WHERE project_id = $1 AND story_id = $2${options.forUpdate ? ' FOR UPDATE' : ''}`,
    [projectId, storyId],
  );
  return rows[0] ? toStory(rows[0]) : null;
}

/** The story whose `taskIds` lists the task; several (a task moved) → the most recently upserted. */
export async function findStoryListingTask(
  manager: EntityManager,
  projectId: string,
  taskId: string,
): Promise<StoredStory | null> {
  const rows: StoryRow[] = await manager.query(
    `SELECT ${STORY_COLUMNS} FROM context_story WHERE project_id = $1 AND task_ids ? $2
      ORDER BY snapshot_at DESC, snapshot_event_id DESC LIMIT 1`,
    [projectId, taskId],
  );
  return rows[0] ? toStory(rows[0]) : null;
}

function toStory(row: StoryRow): StoredStory {
  return {
    storyId: row.story_id,
    status: row.status,
    archived: row.archived,
    rules: row.regras,
    taskIds: row.task_ids,
    title: row.title,
    rf: row.rf,
    rnf: row.rnf,
    dod: row.dod,
    dor: row.dor,
  };
}

/**
 * The statuses of the story's tasks: those its `taskIds` lists and those whose `agent.task.status`
 * named it. Both count, so a task moving between stories blocks a correction of either while it
 * runs — refusing is the safe side of a doubt.
 */
export async function storyTaskStatuses(
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

/**
 * `agent.story.upserted` into the story's row: the whole story as the engine holds it. Three column groups, each with its
 * own version: the snapshot (status, rules, tasks) follows the newest upsert; `archived` follows
 * the newest of upserts and this service's archives (`story.archived`); the content
 * (title, FR, NFR, DoD, DoR) follows the newest of upserts and this service's corrections, so an
 * older upsert delivered late never undoes a correction, and a newer one (the engine having
 * applied it, or edited further) replaces it.
 */
export async function writeStoryUpserted(
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

function json(value: unknown): string {
  return JSON.stringify(value);
}
