import type { EntityManager } from 'typeorm';
import {
  refusal,
  type GateHistoryCommand,
  type GateHistoryReply,
  type GatesWaitingReply,
  type GateView,
  type ListGatesCommand,
  type Refusal,
  type WaitingGatesCommand,
} from '@openq/contracts';
import { gateView, type Viewer } from '../domain/gate-cycle';
import { GateCycleStore } from '../store/gate-cycle.store';
import { GateHistory } from '../store/gate-history.store';

/** [openq] At most this many parked cycles per `gates.waiting` reply (with the `total`). */
export const WAITING_LIMIT = 100;

/** §4 `GET /projects/:projectId/tasks/:taskId/gates`: the task's cycles, qa then secops. */
export async function listGates(
  manager: EntityManager,
  cmd: ListGatesCommand,
): Promise<GateView[] | Refusal> {
  const cycles = await new GateCycleStore(manager).listTask(cmd.projectId, cmd.taskId);
  if (cycles.length === 0) {
    return refusal(404, 'tarefa_nao_encontrada', `task ${cmd.taskId} has no gate cycle in this project`);
  }
  const viewer = viewerOf(cmd);
  return cycles.map((c) => gateView(c, viewer));
}

/**
 * The inbox's parked cycles of a project, longest parked first: `waitingForYou` (parked on the
 * user's decision, with the open `questionIds`) or idle-parked (a developer may resume them).
 */
export async function waitingGates(
  manager: EntityManager,
  cmd: WaitingGatesCommand,
): Promise<GatesWaitingReply> {
  const { cycles, total } = await new GateCycleStore(manager).listParked(cmd.projectId, WAITING_LIMIT);
  const viewer = viewerOf(cmd);
  return { items: cycles.map((c) => ({ taskId: c.taskId, ...gateView(c, viewer) })), total };
}

/** §12.1 `waitingForYou` is the caller's: who they are and whom they may answer for. */
function viewerOf(cmd: { userId?: string; answersFor?: string[] }): Viewer | null {
  return cmd.userId ? { userId: cmd.userId, answersFor: cmd.answersFor ?? [] } : null;
}

/** [openq] §11.1 the gate's history: what its cycles published (parks, resumes and who, verdicts). */
export function gateHistory(manager: EntityManager, cmd: GateHistoryCommand): Promise<GateHistoryReply> {
  return new GateHistory(manager).list(cmd);
}
