import type { DataSource } from 'typeorm';
import type { EngineCommand, EngineSubscriptionView, Refusal } from '@openq/contracts';
import { engineNotFound } from '../domain/engine-not-found';
import { getSubscription } from '../store/engine-subscriptions.store';

/** The engine's subscription, its secret never shown; 404 when it has none. */
export async function engineSubscriptionQuery(
  dataSource: DataSource,
  cmd: EngineCommand,
): Promise<EngineSubscriptionView | Refusal> {
  return (await getSubscription(dataSource.manager, cmd.engineId)) ?? engineNotFound(cmd.engineId);
}
