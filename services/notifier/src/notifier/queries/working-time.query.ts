import type { DataSource } from 'typeorm';
import type { UserCommand, WorkingTimeView } from '@openq/contracts';
import { workingTimeView } from '../store/clock.store';

export function workingTimeQuery(ds: DataSource, cmd: UserCommand): Promise<WorkingTimeView> {
  return workingTimeView(ds.manager, cmd.userId);
}
