import type { EntityManager } from 'typeorm';
import type { Delegation } from '../../delegation/domain/delegation';
import { DelegationLog } from '../../delegation/store/delegation-log.store';
import { PolicyLog } from '../store/policy-log.store';

/**
 * §12.1 the grants to `userId` in the project that may count now: all of them while delegation is
 * on, none while it is off (a grant made while it was on stops working; the log keeps it).
 */
export async function grantsInForce(
  manager: EntityManager,
  projectId: string,
  userId: string,
): Promise<Delegation[]> {
  const policy = await new PolicyLog(manager).load(projectId);
  return policy.delegation ? new DelegationLog(manager).loadTo(projectId, userId) : [];
}
