import type { EntityManager } from 'typeorm';
import { OpenqEvent, newId, type StoryArchived, type StoryCorrected } from '@openq/contracts';
import { DeciderTransaction, type OutboxWriter, type WireEvent } from '@openq/messaging';
import { storyDecider, type Story, type StoryCommand, type StoryEvent } from './domain';
import type { FactVersion } from './store/fact-version';
import { writeStoryArchived, writeStoryContent } from './store/story.store';

/** A story's events on the wire, each with its own id: the version the command writes with it. */
export type WireStoryEvent =
  | (WireEvent<typeof OpenqEvent.StoryCorrected, StoryCorrected> & { eventId: string })
  | (WireEvent<typeof OpenqEvent.StoryArchived, StoryArchived> & { eventId: string });

/** The domain's story events → `story.corrected` / `story.archived` (SPEC §6.4, §11.3). */
export function storyToWire(event: StoryEvent): WireStoryEvent {
  const eventId = newId();
  if (event.type === 'story.corrected') {
    const data: StoryCorrected = { ...event.data };
    return { type: OpenqEvent.StoryCorrected, data, occurredAt: event.occurredAt, eventId };
  }
  const data: StoryArchived = { ...event.data };
  return { type: OpenqEvent.StoryArchived, data, occurredAt: event.occurredAt, eventId };
}

/** The version a published story event writes with: the one a replay gives it (`versionOf`). */
function versionOfWire(event: WireStoryEvent): FactVersion {
  return { at: event.occurredAt.toISOString(), eventId: event.eventId };
}

/**
 * One change of a story inside the caller's transaction (a request's `withOutbox`): the handler
 * loads the story under its row lock, then `stories` decides through the decider kit; the new
 * content or `archived` flag is written with the published event's own version (`occurredAt`, its
 * event id), so an older `agent.story.upserted` delivered afterwards leaves it alone, and the
 * event goes to the outbox, all in that one transaction.
 */
export class ContextTransaction {
  readonly stories: DeciderTransaction<StoryCommand, Story | null, StoryEvent, WireStoryEvent>;

  constructor(
    readonly manager: EntityManager,
    outbox: OutboxWriter,
    readonly projectId: string,
    readonly now: Date,
  ) {
    this.stories = new DeciderTransaction<StoryCommand, Story | null, StoryEvent, WireStoryEvent>(
      {
        decider: storyDecider,
        projectOf: () => projectId,
        toWire: storyToWire,
        save: async (story, { published }) => {
          if (story === null) return;
          for (const event of published) {
            const version = versionOfWire(event);
            if (event.type === OpenqEvent.StoryCorrected)
              await writeStoryContent(manager, projectId, story.storyId, story, version);
            else await writeStoryArchived(manager, projectId, story.storyId, true, version);
          }
        },
      },
      outbox,
    );
  }
}
