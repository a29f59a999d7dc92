import type { DataSource } from 'typeorm';
import type { EngineCommand, EngineSubscriptionDeleted, Refusal } from '@openq/contracts';
import { engineNotFound } from '../../domain/engine-not-found';
import { deleteSubscription } from '../../store/engine-subscriptions.store';

export async function deleteEngineSubscriptionHandler(
  dataSource: DataSource,
  cmd: EngineCommand,
): Promise<EngineSubscriptionDeleted | Refusal> {
  const deleted = await deleteSubscription(dataSource.manager, cmd.engineId);
  return deleted ? { engineId: cmd.engineId, deleted: true } : engineNotFound(cmd.engineId);
}
