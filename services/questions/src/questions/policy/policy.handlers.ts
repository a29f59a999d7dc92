import type { DataSource } from 'typeorm';
import { isRefusal, type ProjectPolicies, type ProjectPoliciesReply, type Refusal } from '@openq/contracts';
import { withOutbox } from '@openq/messaging';
import { delegationStatus } from '../delegation/delegation';
import { PolicyLog, grantsInForce, policyTransaction } from './policy-log';

/** §12.1 a maintainer changes the project's policies, under the project's policy lock. */
export async function changePolicies(
  dataSource: DataSource,
  command: {
    projectId: string;
    by: string;
    motivo: string;
    delegacao?: boolean;
    overrideDeMantenedor?: boolean;
  },
  now = new Date(),
): Promise<ProjectPolicies | Refusal> {
  return withOutbox(dataSource, {}, async (manager, outbox) => {
    const log = new PolicyLog(manager);
    await log.lockForChange(command.projectId);
    const current = await log.load(command.projectId);
    const decided = await policyTransaction(manager, outbox, command.projectId, log).decide(
      { type: 'change', ...command },
      current,
      now,
    );
    if (isRefusal(decided)) return decided;
    const { delegacao, overrideDeMantenedor } = decided.state;
    return { delegacao, overrideDeMantenedor };
  });
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
  return { ...policy, answersFor };
}
