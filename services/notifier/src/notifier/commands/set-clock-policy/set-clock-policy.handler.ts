import type { DataSource } from 'typeorm';
import { isRefusal, type ClockPolicyView, type Refusal, type SetClockPolicyCommand } from '@openq/contracts';
import { parseClockPolicy } from '../../domain/clock';
import type { NotifierRuntime } from '../../notifier-runtime';
import { clockPolicyView, recordMember, setClockPolicy } from '../../store/clock.store';

/**
 * A project's clock policy set or removed. The gateway lets only maintainers (and owners) here;
 * the policy's shape is the domain's to judge. The clock ticks at once on the new inputs.
 */
export async function setClockPolicyHandler(
  dataSource: DataSource,
  runtime: NotifierRuntime,
  cmd: SetClockPolicyCommand,
): Promise<ClockPolicyView | Refusal> {
  const policy = cmd.policy === null ? null : parseClockPolicy(cmd.policy);
  if (isRefusal(policy)) return policy;
  const view = await dataSource.transaction(async (m) => {
    await recordMember(m, cmd.projectId, cmd.userId, cmd.role);
    await setClockPolicy(m, cmd.projectId, policy, cmd.userId);
    return clockPolicyView(m, cmd.projectId);
  });
  void runtime.clock?.tick().catch(() => 0);
  return view;
}
