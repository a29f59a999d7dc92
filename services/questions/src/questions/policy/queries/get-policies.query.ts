import type { DataSource } from 'typeorm';
import type { ProjectPolicies, ProjectPoliciesReply } from '@openq/contracts';
import { delegationStatus } from '../../delegation/domain/delegation';
import type { ProjectPolicy } from '../domain/project-policy';
import { PolicyLog } from '../store/policy-log.store';
import { grantsInForce } from './grants-in-force.query';

/** §12.1 the policies as the wire says them. */
export function policiesView(policy: ProjectPolicy): ProjectPolicies {
  return { delegacao: policy.delegation, overrideDeMantenedor: policy.maintainerOverride };
}

/**
 * §12.1 the policies in force, and whom `userId` may answer for now: the grantors of their live
 * grants while delegation is on (none while it is off: a grant made while on stops working).
 */
export async function getPolicies(
  dataSource: DataSource,
  projectId: string,
  userId: string | undefined,
  now = new Date(),
): Promise<ProjectPoliciesReply> {
  const policy = await new PolicyLog(dataSource.manager).load(projectId);
  const grants = userId ? await grantsInForce(dataSource.manager, projectId, userId) : [];
  const answersFor = [
    ...new Set(grants.filter((g) => delegationStatus(g, now) === 'active').map((g) => g.granted.from)),
  ];
  return { ...policiesView(policy), answersFor };
}
