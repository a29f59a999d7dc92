import type { AskerRole, DecisionView } from '@openq/contracts';
import { compareInstantsDesc } from './instants';

/** What a question affects (SPEC §3.1 `afeta`). */
export interface Affects {
  regras: readonly string[];
  historias: readonly string[];
  tarefas: readonly string[];
}

/** A decision of the project's decision index (from `decision.recorded` + its question's `afeta`). */
export interface CandidateDecision {
  decisionEventId: string;
  questionId: string;
  pergunta: string;
  resposta: string;
  respondidaPor: string;
  /** §11.6 who clicked the answer (the author or their delegate); null for an agent's, or unknown. */
  answeredBy?: string | null;
  viaAgente: AskerRole | null;
  /** ISO-8601 instant. */
  decidedAt: string;
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
  regras: readonly string[];
}

/**
 * The decisions linked to a task (SPEC §6): `afeta.tarefas` holds the task, or `afeta.historias`
 * holds its story, or `afeta.regras` meets the story's rules. One per question (a newer decision on
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
  if (affects.tarefas.includes(task.taskId)) return true;
  if (storyId !== null && affects.historias.includes(storyId)) return true;
  const rules = new Set(story?.regras ?? []);
  return affects.regras.some((rule) => rules.has(rule));
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
