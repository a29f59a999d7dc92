import type { DevContext } from '@openq/contracts';
import type { CandidateDecision, TaskRef } from './decision-selection';
import { selectDecisions } from './decision-selection';
import { renderDecisionsBlock } from './decisions-block';
import type { Story, StoryContent } from './story';
import { renderTaskAndStory, storyContent } from './story';

/** What a task-scoped context needs of the story: content and rules (status is not looked at). */
export type StoryFacts = Pick<Story, 'storyId' | 'rules'> & StoryContent;

/** SPEC §6.1: the contract's reply (its fields are the wire's). */
export type { DevContext };

/**
 * Dev kickoff: `text` opens with the decisions block (they win over FR/DoR, so they come first),
 * then the task and its story. `decisoes` are the decisions the block shows; `decisoesTotal` counts
 * all linked ones.
 */
export function buildDevContext(
  task: TaskRef,
  story: StoryFacts | null,
  candidates: readonly CandidateDecision[],
): DevContext {
  const block = renderDecisionsBlock(selectDecisions(task, story, candidates));
  return {
    taskId: task.taskId,
    storyId: task.storyId ?? story?.storyId ?? null,
    story: story === null ? null : storyContent(story),
    decisoes: block.shown,
    decisoesTotal: block.total,
    text: `${block.text}\n\n${renderTaskAndStory(task.taskId, story)}`,
  };
}
