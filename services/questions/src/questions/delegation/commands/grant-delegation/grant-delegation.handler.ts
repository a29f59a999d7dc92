import type { DataSource } from 'typeorm';
import { isRefusal, newId, type GrantDelegationReply, type Refusal } from '@openq/contracts';
import { withOutbox } from '@openq/messaging';
import { delegationTransaction } from '../../delegation-transaction';
import { PolicyLog } from '../../../policy/store/policy-log.store';

/**
 * §11.6 `from` (the caller) lets `to` answer their questions in the project until `until`: a new
 * grant id; the decider checks the fields (400 `delegacao_invalida`) and, read under the policy
 * lock so a change cannot slip in between, that the project's delegation is on (§12.1).
 */
export async function grantDelegation(
  dataSource: DataSource,
  command: { projectId: string; from: string; to: string; until: string },
  now = new Date(),
): Promise<GrantDelegationReply | Refusal> {
  return withOutbox(dataSource, {}, async (manager, outbox) => {
    const policies = new PolicyLog(manager);
    await policies.lockForRead([command.projectId]);
    const { delegation } = await policies.load(command.projectId);
    const decided = await delegationTransaction(manager, outbox).decide(
      { type: 'grant', grantId: newId(), ...command, delegationOn: delegation },
      null,
      now,
    );
    if (isRefusal(decided)) return decided;
    const { grantId, from, to, until, grantedAt } = decided.state!.granted;
    return { grantId, from, to, until, grantedAt };
  });
}
