import type { DataSource } from 'typeorm';
import {
  isRefusal,
  newId,
  type DelegationListReply,
  type DelegationView,
  type GrantDelegationReply,
  type Refusal,
} from '@openq/contracts';
import { withOutbox } from '@openq/messaging';
import { delegationStatus, newestGrantFirst, type Delegation } from './delegation';
import { DelegationLog, delegationTransaction } from './delegation-log';
import { PolicyLog } from '../policy/policy-log';

/** §11.6 a grant as the lists show it, as of `now`. */
export function delegationView(grant: Delegation, now: Date): DelegationView {
  return {
    ...grant.granted,
    status: delegationStatus(grant, now),
    revokedAt: grant.revoked?.revokedAt ?? null,
    revokedBy: grant.revoked?.by ?? null,
  };
}

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
    const { delegacao } = await policies.load(command.projectId);
    const decided = await delegationTransaction(manager, outbox).decide(
      { type: 'grant', grantId: newId(), ...command, delegationOn: delegacao },
      null,
      now,
    );
    if (isRefusal(decided)) return decided;
    const { grantId, from, to, until, grantedAt } = decided.state!.granted;
    return { grantId, from, to, until, grantedAt };
  });
}

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

/** §11.6 the grants from and to `userId` in the project, active and past, newest first. */
export async function listDelegations(
  dataSource: DataSource,
  projectId: string,
  userId: string,
  now = new Date(),
): Promise<DelegationListReply> {
  const grants = (await new DelegationLog(dataSource.manager).loadOf(projectId, userId)).sort(
    newestGrantFirst,
  );
  return {
    given: grants.filter((g) => g.granted.from === userId).map((g) => delegationView(g, now)),
    received: grants.filter((g) => g.granted.to === userId).map((g) => delegationView(g, now)),
  };
}
