import type { DataSource } from 'typeorm';
import { isRefusal, type DelegationView, type Refusal } from '@openq/contracts';
import { withOutbox } from '@openq/messaging';
import { delegationTransaction } from '../../delegation-transaction';
import { delegationView } from '../../queries/list-delegations.query';
import { DelegationLog } from '../../store/delegation-log.store';

/**
 * §11.6 the grantor revokes a grant: under the lock of its (project, from, to) pair, which the
 * answers relying on it take too, so an answer either committed before the revocation or sees it.
 */
export async function revokeDelegation(
  dataSource: DataSource,
  command: { projectId: string; grantId: string; by: string },
  now = new Date(),
): Promise<DelegationView | Refusal> {
  return withOutbox(dataSource, {}, async (manager, outbox) => {
    const log = new DelegationLog(manager);
    let current = await log.load(command.grantId);
    if (current) {
      const { projectId, from, to } = current.granted;
      await log.lockPairs([{ projectId, from, to }]);
      current = await log.load(command.grantId);
    }
    const decided = await delegationTransaction(manager, outbox, log).decide(
      { type: 'revoke', ...command },
      current,
      now,
    );
    if (isRefusal(decided)) return decided;
    return delegationView(decided.state!, now);
  });
}
