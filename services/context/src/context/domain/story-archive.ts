import { refusal, type Refusal } from '@openq/contracts';
import type { Story } from './story';
import { canArchive, type CorrectionActor } from './story-correction';

/** Payload of `story.archived` (SPEC §11.3); the time is the envelope's `occurredAt`. */
export interface StoryArchivedPayload {
  storyId: string;
  actor: CorrectionActor;
}

export interface StoryArchive {
  /** null: the story was already archived (a retry, or both doors at once): nothing to publish. */
  event: StoryArchivedPayload | null;
}

/**
 * ADR 0214 §8: archiving stays draft-only, for both doors of §6.4 (a user, and `agent/po`).
 * 404 `historia_nao_encontrada`; an archived story is archived already → no event [openq: the
 * door answers 200 again, whatever its status now]; otherwise a story that is not a draft →
 * 409 `historia_nao_draft`.
 */
export function decideStoryArchive(
  request: { storyId: string; actor: CorrectionActor },
  story: Story | null,
): StoryArchive | Refusal {
  if (story === null || story.storyId !== request.storyId) {
    return refusal(404, 'historia_nao_encontrada', `story ${request.storyId} not found`);
  }
  if (story.archived) return { event: null };
  if (!canArchive(story)) {
    return refusal(
      409,
      'historia_nao_draft',
      `only a draft story may be archived; this one is ${story.status}`,
    );
  }
  return { event: { storyId: story.storyId, actor: request.actor } };
}
