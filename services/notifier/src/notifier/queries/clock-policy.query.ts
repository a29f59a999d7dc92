import type { DataSource } from 'typeorm';
import type { ClockPolicyView, UserScopedCommand } from '@openq/contracts';
import { clockPolicyView } from '../store/clock.store';

export function clockPolicyQuery(ds: DataSource, cmd: UserScopedCommand): Promise<ClockPolicyView> {
  return clockPolicyView(ds.manager, cmd.projectId);
}
