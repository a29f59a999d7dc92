import { compareInstantsDesc, type Affects, type DecisionView } from '@openq/contracts';

/** What a question affects (the contract's `Affects`: the wire's `afeta`, SPEC §3.1). */
export type { Affects } from '@openq/contracts';

/**
 * A decision of the project's decision index (from `decision.recorded` + its question's `afeta`):
 * the view the agents receive (the contract's `DecisionView`, whose fields are the wire's), who
 * clicked it, and what it affects.
 */
export interface CandidateDecision extends Omit<DecisionView, 'answeredBy'> {
  /** §11.6 who clicked the answer (the author or their delegate); null for an agent's, or unknown. */
  answeredBy?: string | null;
  affects: Affects;
}

/** A decision as the agents receive it (SPEC §6.1 `decisoes[]`): the contract's view. */
export type { DecisionView };

export interface TaskRef {
  taskId: string;
  storyId: string | null;
}

/** The task's story, as far as linking needs it. */
export interface StoryRules {
  storyId: string;
  rules: readonly string[];
}

/**
 * The decisions linked to a task (SPEC §6): what it affects holds the task (`afeta.tarefas`), or
 * its story (`afeta.historias`), or meets the story's rules (`afeta.regras`). One per question (a newer decision on
 * the same question supersedes the older), newest first; equal instants order by decisionEventId
 * descending (UUID v7, so that is still time order).
 */
export function selectDecisions(
  task: TaskRef,
  story: StoryRules | null,
  candidates: readonly CandidateDecision[],
): DecisionView[] {
  return latestPerQuestion(candidates)
    .filter((decision) => isLinked(decision.affects, task, story))
    .sort(newestFirst)
    .map(toView);
}

/** The linking rule of SPEC §6, shared by every task-scoped context. */
export function isLinked(affects: Affects, task: TaskRef, story: StoryRules | null): boolean {
  const storyId = task.storyId ?? story?.storyId ?? null;
  if (affects.tasks.includes(task.taskId)) return true;
  if (storyId !== null && affects.stories.includes(storyId)) return true;
  const rules = new Set(story?.rules ?? []);
  return affects.rules.some((rule) => rules.has(rule));
}

export function newestFirst(
  a: Pick<CandidateDecision, 'decidedAt' | 'decisionEventId'>,
  b: Pick<CandidateDecision, 'decidedAt' | 'decisionEventId'>,
): number {
  const byTime = compareInstantsDesc(a.decidedAt, b.decidedAt);
  if (byTime !== 0) return byTime;
  if (a.decisionEventId === b.decisionEventId) return 0;
  return a.decisionEventId < b.decisionEventId ? 1 : -1;
}

/** One decision per question, the newest: a newer decision on a question supersedes the older. */
export function latestPerQuestion<
  T extends Pick<CandidateDecision, 'questionId' | 'decidedAt' | 'decisionEventId'>,
>(candidates: readonly T[]): T[] {
  const latest = new Map<string, T>();
  for (const decision of candidates) {
    const kept = latest.get(decision.questionId);
    if (!kept || newestFirst(decision, kept) < 0) latest.set(decision.questionId, decision);
  }
  return [...latest.values()];
}

function toView(decision: CandidateDecision): DecisionView {
  const { decisionEventId, questionId, pergunta, resposta, respondidaPor, answeredBy, viaAgente, decidedAt } =
    decision;
  // §11.6 who answered for whom, said only when it was not the person themselves.
  const delegate = answeredBy && answeredBy !== respondidaPor ? { answeredBy } : {};
  return {
    decisionEventId,
    questionId,
    pergunta,
    resposta,
    respondidaPor,
    ...delegate,
    viaAgente,
    decidedAt,
  };
}
