import type { GateResumeReply, Refusal, ResumeGateCommand } from '@openq/contracts';
import { isRefusal } from '@openq/contracts';
import type { GateCommand } from '../../domain/gate-cycle';
import type { GateTransaction } from '../../gate-transaction';

/**
 * A person resumes an idle-parked cycle (`gate.resumed`, trigger `human`; the counter is not
 * touched). 409 `gate_nao_estacionado` when it is not parked; 409 `gate_aguarda_decisao` with
 * the open `questionIds` when it waits on the user's decision: only the answers resume it.
 * §11.1 with `override` (the gateway let only a maintainer or owner through), a decision park
 * resumes without the answer: trigger `override`, `by` the caller, their `motivo`; 409
 * `gate_nao_aguarda_decisao` for an idle park; §12.1 403 `override_desligado` unless the project's
 * policy allows it (the gateway asks the policy's owner and passes `overrideAllowed`).
 */
export async function resumeGate(
  tx: GateTransaction,
  cmd: ResumeGateCommand,
  now: Date,
): Promise<GateResumeReply | Refusal> {
  const state = await tx.cycles.lock({ projectId: cmd.projectId, taskId: cmd.taskId, gate: cmd.gate });
  const command: GateCommand =
    cmd.override === true && cmd.motivo !== undefined
      ? {
          type: 'overrideResume',
          data: { by: cmd.userId, why: cmd.motivo, allowed: cmd.overrideAllowed === true },
        }
      : { type: 'humanResume' };
  const decided = await tx.decide(command, state, now);
  return isRefusal(decided) ? decided : { ok: true };
}
