import type { DataSource } from 'typeorm';
import { refusal, type RedeliverCommand, type RedeliverReply, type Refusal } from '@openq/contracts';
import type { NotifierRuntime } from '../../notifier-runtime';
import { redeliver } from '../../store/deliveries.store';

/** A person sends one of their deliveries again (same id, attempts from zero); the sender looks at once. */
export async function redeliverHandler(
  dataSource: DataSource,
  runtime: NotifierRuntime,
  cmd: RedeliverCommand,
): Promise<RedeliverReply | Refusal> {
  const status = await redeliver(dataSource, cmd.projectId, cmd.userId, cmd.deliveryId);
  // The same body for another person's delivery as for none: nothing leaks.
  if (status === null)
    return refusal(404, 'entrega_nao_encontrada', 'no such delivery of yours in this project');
  runtime.sender?.kick();
  return { deliveryId: cmd.deliveryId, status };
}
