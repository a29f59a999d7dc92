import type { EntityManager } from 'typeorm';
import {
  refusal,
  type DevContext,
  type QaCut,
  type Refusal,
  type TaskContextCommand,
} from '@openq/contracts';
import { buildDevContext, buildQaCut } from '../domain';
import { loadTaskFacts } from './task-facts.query';

/** `openq.context.dev-context` (SPEC §6.1): the dev kickoff of a task; 404 for a task never heard of. */
export async function devContextOf(
  manager: EntityManager,
  cmd: TaskContextCommand,
): Promise<DevContext | Refusal> {
  const facts = await loadTaskFacts(manager, cmd.projectId, cmd.taskId);
  return facts ? buildDevContext(facts.task, facts.story, facts.candidates) : taskNotFound(cmd.taskId);
}

/** `openq.context.qa-cut` (SPEC §6.2): the dev kickoff and the cut rule; 404 for a task never heard of. */
export async function qaCutOf(manager: EntityManager, cmd: TaskContextCommand): Promise<QaCut | Refusal> {
  const facts = await loadTaskFacts(manager, cmd.projectId, cmd.taskId);
  return facts ? buildQaCut(facts.task, facts.story, facts.candidates) : taskNotFound(cmd.taskId);
}

function taskNotFound(taskId: string): Refusal {
  return refusal(404, 'tarefa_nao_encontrada', `task ${taskId} not found`);
}
