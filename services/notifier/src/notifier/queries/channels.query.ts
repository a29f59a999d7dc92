import type { DataSource } from 'typeorm';
import type { NotificationChannelsView, UserScopedCommand } from '@openq/contracts';
import { channelsView } from '../store/channels.store';
import { recordMember } from '../store/clock.store';

/** The caller's channels on the project, secrets masked (it records the caller's role, as the channel routes do). */
export async function channelsQuery(
  ds: DataSource,
  cmd: UserScopedCommand,
): Promise<NotificationChannelsView> {
  await recordMember(ds.manager, cmd.projectId, cmd.userId, cmd.role);
  return channelsView(ds.manager, cmd.projectId, cmd.userId);
}
