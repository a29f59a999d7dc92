import { QA_CUT_RULE } from '@openq/agent-sdk';
import type { QaCut } from '@openq/contracts';
import type { CandidateDecision, TaskRef } from './decision-selection';
import type { StoryFacts } from './dev-context';
import { buildDevContext } from './dev-context';

/** SPEC §6.2: the dev kickoff's fields plus QA's cut rule (the contract's reply). */
export type { QaCut };

/**
 * QA cut: the same decisions block (same heading, same ceilings) and the task with its story, then
 * the cut rule, last, so it is what QA reads right before judging.
 */
export function buildQaCut(
  task: TaskRef,
  story: StoryFacts | null,
  candidates: readonly CandidateDecision[],
): QaCut {
  const context = buildDevContext(task, story, candidates);
  return { ...context, cutRule: QA_CUT_RULE, text: `${context.text}\n\nQA cut rule: ${QA_CUT_RULE}` };
}
