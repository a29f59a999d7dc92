import type { AgentGateActivityDto, AgentGateStartedDto, Refusal } from '@openq/contracts';
import type { CycleTx, Stepped } from '../../cycle-tx';

/** `agent.gate.started`: opens (or runs again) the cycle; on a parked cycle it is only activity. */
export async function startCycle(
  tx: CycleTx,
  projectId: string,
  data: AgentGateStartedDto,
  defaultMaxCorrections: number,
  now: Date,
): Promise<Stepped | Refusal> {
  const { taskId, gate, sessionAuthorId, maxCorrections } = data;
  const state = await tx.cycles.lock({ projectId, taskId, gate });
  return tx.step(
    state,
    {
      type: 'start',
      data: { projectId, taskId, gate, sessionAuthorId, maxCorrections, defaultMaxCorrections },
    },
    now,
  );
}

/** `agent.gate.activity`: a heartbeat; refreshes the idle clock of a cycle that exists. */
export async function recordActivity(
  tx: CycleTx,
  projectId: string,
  data: AgentGateActivityDto,
  now: Date,
): Promise<Stepped | Refusal> {
  const state = await tx.cycles.lock({ projectId, taskId: data.taskId, gate: data.gate });
  return tx.step(state, { type: 'activity' }, now);
}
