import type { AgentGateActivityDto, AgentGateStartedDto, Refusal } from '@openq/contracts';
import type { Decided } from '@openq/messaging';
import type { GateCycle, GateEvent } from '../../domain/gate-cycle';
import type { GateTransaction } from '../../gate-transaction';

/** `agent.gate.started`: opens (or runs again) the cycle; on a parked cycle it is only activity. */
export async function startCycle(
  tx: GateTransaction,
  projectId: string,
  data: AgentGateStartedDto,
  defaultMaxCorrections: number,
  now: Date,
): Promise<Decided<GateCycle | null, GateEvent> | Refusal> {
  const { taskId, gate, sessionAuthorId, maxCorrections } = data;
  // Usually the first message of its cycle (a restart finds it and is decided on it all the same).
  const state = await tx.cycles.lock({ projectId, taskId, gate }, { creating: true });
  return tx.decide(
    {
      type: 'start',
      data: { projectId, taskId, gate, sessionAuthorId, maxCorrections, defaultMaxCorrections },
    },
    state,
    now,
  );
}

/** `agent.gate.activity`: a heartbeat; refreshes the idle clock of a cycle that exists. */
export async function recordActivity(
  tx: GateTransaction,
  projectId: string,
  data: AgentGateActivityDto,
  now: Date,
): Promise<Decided<GateCycle | null, GateEvent> | Refusal> {
  const state = await tx.cycles.lock({ projectId, taskId: data.taskId, gate: data.gate });
  return tx.decide({ type: 'activity' }, state, now);
}
