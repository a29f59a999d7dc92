import type { EntityManager } from 'typeorm';
import type { AgentTaskStatusDto } from '@openq/contracts';
import { olderThan, type FactVersion } from '../store/fact-version';

/**
 * `agent.task.status`: the task's board status and, when the event names it, its story. Each is
 * versioned on its own, so a late event never rolls either back; an event with only `stage` (the
 * pipeline's business) still makes the task known here. A null or absent `storyId` says nothing
 * about the story (it does not unlink).
 */
export async function projectTaskStatus(
  manager: EntityManager,
  projectId: string,
  event: AgentTaskStatusDto,
  version: FactVersion,
): Promise<void> {
  await manager.query(
    `INSERT INTO context_task (project_id, task_id) VALUES ($1, $2) ON CONFLICT (project_id, task_id) DO NOTHING`,
    [projectId, event.taskId],
  );
  if (event.status) {
    await manager.query(
      `UPDATE context_task SET status = $3, status_at = $4, status_event_id = $5
        WHERE project_id = $1 AND task_id = $2 AND ${olderThan('status_at', 'status_event_id', 4, 5)}`,
      [projectId, event.taskId, event.status, version.at, version.eventId],
    );
  }
  if (event.storyId) {
    await manager.query(
      `UPDATE context_task SET story_id = $3, story_at = $4, story_event_id = $5
        WHERE project_id = $1 AND task_id = $2 AND ${olderThan('story_at', 'story_event_id', 4, 5)}`,
      [projectId, event.taskId, event.storyId, version.at, version.eventId],
    );
  }
}
