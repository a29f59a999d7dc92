import { refusal, type DomainEvent, type Refusal } from '@openq/contracts';
import type { Story } from './story';
import { canArchive, type CorrectionActor } from './story-correction';

/** Archive a story (SPEC §11.3), by either door of §6.4. */
export interface ArchiveStory {
  type: 'archive';
  storyId: string;
  actor: CorrectionActor;
}

/** `story.archived` (SPEC §11.3); the time is the event's `occurredAt`. */
export type StoryArchived = DomainEvent<'story.archived', { storyId: string; actor: CorrectionActor }>;

/**
 * ADR 0214 §8: archiving stays draft-only, for both doors of §6.4 (a user, and `agent/po`).
 * 404 `historia_nao_encontrada`; an archived story is archived already → no event (a retry, or
 * both doors at once) [openq: the door answers 200 again, whatever its status now]; otherwise a
 * story that is not a draft → 409 `historia_nao_draft`.
 */
export function decideArchive(
  command: ArchiveStory,
  story: Story | null,
  now: Date,
): StoryArchived[] | Refusal {
  if (story === null || story.storyId !== command.storyId) {
    return refusal(404, 'historia_nao_encontrada', `story ${command.storyId} not found`);
  }
  if (story.archived) return [];
  if (!canArchive(story)) {
    return refusal(
      409,
      'historia_nao_draft',
      `only a draft story may be archived; this one is ${story.status}`,
    );
  }
  return [
    { type: 'story.archived', data: { storyId: story.storyId, actor: command.actor }, occurredAt: now },
  ];
}
