import type { DataSource } from 'typeorm';
import { isRefusal, type ProjectPolicies, type Refusal } from '@openq/contracts';
import { withOutbox } from '@openq/messaging';
import { policyTransaction } from '../../policy-transaction';
import { policiesView } from '../../queries/get-policies.query';
import { PolicyLog } from '../../store/policy-log.store';

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
    const { projectId, by, motivo, delegacao, overrideDeMantenedor } = command;
    const decided = await policyTransaction(manager, outbox, projectId, log).decide(
      {
        type: 'change',
        projectId,
        by,
        reason: motivo,
        ...(delegacao !== undefined ? { delegation: delegacao } : {}),
        ...(overrideDeMantenedor !== undefined ? { maintainerOverride: overrideDeMantenedor } : {}),
      },
      current,
      now,
    );
    if (isRefusal(decided)) return decided;
    return policiesView(decided.state);
  });
}
