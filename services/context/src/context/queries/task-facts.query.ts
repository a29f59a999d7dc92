import type { EntityManager } from 'typeorm';
import type { AskerRole } from '@openq/contracts';
import type { CandidateDecision, StoryFacts, TaskRef } from '../domain';
import { findStory, findStoryListingTask } from '../store/story.store';

/** What a task-scoped context (dev kickoff, QA cut) is built from. */
export interface TaskFacts {
  task: TaskRef;
  story: StoryFacts | null;
  candidates: CandidateDecision[];
}

/**
 * Loads a task, its story and the decisions that may link to it, or null for a task this service
 * has never heard of. A task is known when `agent.task.status` named it, a story's `taskIds` lists
 * it, or a decision's `afeta.tarefas` holds it (an open question alone does not make it known).
 *
 * The task's story: the `storyId` of its latest `agent.task.status` that carried one (a statement
 * about the task itself); otherwise the story listing it. A named story not yet upserted gives
 * `storyId` with `story` null, and linking goes by task and story id only.
 */
export async function loadTaskFacts(
  manager: EntityManager,
  projectId: string,
  taskId: string,
): Promise<TaskFacts | null> {
  const [taskRow]: { story_id: string | null }[] = await manager.query(
    `SELECT story_id FROM context_task WHERE project_id = $1 AND task_id = $2`,
    [projectId, taskId],
  );
  const story = taskRow?.story_id
    ? await findStory(manager, projectId, taskRow.story_id)
    : await findStoryListingTask(manager, projectId, taskId);
  const storyId = taskRow?.story_id ?? story?.storyId ?? null;
  const candidates = await linkableDecisions(manager, projectId, taskId, storyId, story?.rules ?? []);
  // With neither a task row nor a story, only decisions naming the task can have been found.
  if (!taskRow && !story && candidates.length === 0) return null;
  return { task: { taskId, storyId }, story, candidates };
}

interface DecisionRow {
  decision_event_id: string;
  question_id: string;
  pergunta: string;
  resposta: string;
  respondida_por: string;
  answered_by: string | null;
  via_agente: AskerRole | null;
  decided_at: string;
  tarefas: string[];
  historias: string[];
  regras: string[];
}

/**
 * The decisions of every question that has one linked to the task (by task, story or rule; GIN
 * lookups), all of each such question's decisions included: the domain keeps one per question and
 * re-applies the linking rule, so this is a narrowing, never the decision.
 */
async function linkableDecisions(
  manager: EntityManager,
  projectId: string,
  taskId: string,
  storyId: string | null,
  regras: readonly string[],
): Promise<CandidateDecision[]> {
  const rows: DecisionRow[] = await manager.query(
    `SELECT decision_event_id, question_id, pergunta, resposta, respondida_por, answered_by, via_agente, decided_at,
            tarefas, historias, regras
       FROM context_decision
      WHERE project_id = $1 AND question_id IN (
        SELECT question_id FROM context_decision
         WHERE project_id = $1 AND (tarefas ? $2 OR historias ? $3 OR regras ?| $4::text[]))`,
    [projectId, taskId, storyId, [...regras]],
  );
  return rows.map((row) => ({
    decisionEventId: row.decision_event_id,
    questionId: row.question_id,
    pergunta: row.pergunta,
    resposta: row.resposta,
    respondidaPor: row.respondida_por,
    answeredBy: row.answered_by,
    viaAgente: row.via_agente,
    decidedAt: row.decided_at,
    affects: { rules: row.regras, stories: row.historias, tasks: row.tarefas },
  }));
}
