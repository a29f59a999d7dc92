import type { DataSource } from 'typeorm';
import { isRefusal, type Refusal, type SetWorkingTimeCommand, type WorkingTimeView } from '@openq/contracts';
import { parseWorkingTime } from '../../domain/clock';
import type { NotifierRuntime } from '../../notifier-runtime';
import { setWorkingTime, workingTimeView } from '../../store/clock.store';

/** A person's working time set or removed (the default then); the clock ticks at once on it. */
export async function setWorkingTimeHandler(
  dataSource: DataSource,
  runtime: NotifierRuntime,
  cmd: SetWorkingTimeCommand,
): Promise<WorkingTimeView | Refusal> {
  const workingTime = cmd.workingTime === null ? null : parseWorkingTime(cmd.workingTime);
  if (isRefusal(workingTime)) return workingTime;
  const view = await dataSource.transaction(async (m) => {
    await setWorkingTime(m, cmd.userId, workingTime);
    return workingTimeView(m, cmd.userId);
  });
  void runtime.clock?.tick().catch(() => 0);
  return view;
}
