import type { DataSource } from 'typeorm';
import type { DelegationListReply, DelegationView } from '@openq/contracts';
import { delegationStatus, newestGrantFirst, type Delegation } from '../domain/delegation';
import { DelegationLog } from '../store/delegation-log.store';

/** §11.6 a grant as the lists show it, as of `now`. */
export function delegationView(grant: Delegation, now: Date): DelegationView {
  return {
    ...grant.granted,
    status: delegationStatus(grant, now),
    revokedAt: grant.revoked?.revokedAt ?? null,
    revokedBy: grant.revoked?.by ?? null,
  };
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
