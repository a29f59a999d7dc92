import type { GateResumeReply, Refusal, ResumeGateCommand } from '@openq/contracts';
import { isRefusal } from '@openq/contracts';
import type { CycleTx } from '../../cycle-tx';

/**
 * A person resumes an idle-parked cycle (`gate.resumed`, trigger `human`; the counter is not
 * touched). 409 `gate_nao_estacionado` when it is not parked; 409 `gate_aguarda_decisao` with
 * the open `questionIds` when it waits on the user's decision: only the answers resume it.
 */
export async function resumeGate(
  tx: CycleTx,
  cmd: ResumeGateCommand,
  now: Date,
): Promise<GateResumeReply | Refusal> {
  const state = await tx.cycles.lock({ projectId: cmd.projectId, taskId: cmd.taskId, gate: cmd.gate });
  const stepped = await tx.step(state, { type: 'humanResume' }, now);
  return isRefusal(stepped) ? stepped : { ok: true };
}
