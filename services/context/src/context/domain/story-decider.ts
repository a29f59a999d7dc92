import type { Decider } from '@openq/contracts';
import type { Story } from './story';
import { decideArchive, type ArchiveStory, type StoryArchived } from './story-archive';
import {
  applyCorrection,
  decideCorrection,
  type CorrectStory,
  type StoryCorrected,
} from './story-correction';

export type StoryCommand = CorrectStory | ArchiveStory;
export type StoryEvent = StoryCorrected | StoryArchived;

/**
 * The one state change the context service decides itself (ADR 0214 §8, SPEC §6.4, §11.3): a
 * story's correction and its archive, on the decider kit. The state is the story as the read
 * model holds it (`null`: none in the project); the engine's upserts reach it through the
 * projector, not through this decider.
 */
export const storyDecider: Decider<StoryCommand, Story | null, StoryEvent> = {
  initialState: null,
  decide: (command, story, now) =>
    command.type === 'correct' ? decideCorrection(command, story, now) : decideArchive(command, story, now),
  evolve: (story, event) => {
    if (story === null) return null;
    return event.type === 'story.corrected' ? applyCorrection(story, event) : { ...story, archived: true };
  },
};
