import type { DataSource } from 'typeorm';
import type { DeliveryListReply, ListDeliveriesCommand } from '@openq/contracts';
import { listDeliveries } from '../store/deliveries.store';

/** The caller's deliveries on the project, newest first (`dead`: the dead letters). */
export function deliveriesQuery(ds: DataSource, cmd: ListDeliveriesCommand): Promise<DeliveryListReply> {
  return listDeliveries(ds, cmd.projectId, cmd.userId, cmd.status, cmd.limit);
}
