import type { EntityManager } from 'typeorm';
import type { Story } from '../domain';

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

/** One story of the project; `forUpdate` holds it until the transaction ends (corrections). */
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
    regras: row.regras,
    taskIds: row.task_ids,
    title: row.title,
    rf: row.rf,
    rnf: row.rnf,
    dod: row.dod,
    dor: row.dor,
  };
}
