import type { DataSource } from 'typeorm';
import { settleDelivery, type DeliveryRows } from '../../../commands/send-delivery/send-delivery.handler';
import type { RetryPolicy } from '../../../domain/backoff';
import { deliveryLife, type DeliveryCommand } from '../../../domain/delivery';
import {
  markEngineDead,
  markEngineRetry,
  markEngineSent,
  type ClaimedEngineDelivery,
} from '../../store/engine-deliveries.store';

/**
 * One outcome of a claimed engine delivery, decided by the notifications' delivery decider (same
 * backoff, same `NOTIFIER_MAX_ATTEMPTS`) and written on its `engine_delivery` row: one statement.
 */
export function settleEngineDelivery(
  ds: DataSource,
  retry: RetryPolicy,
  d: ClaimedEngineDelivery,
  command: DeliveryCommand,
) {
  const rows: DeliveryRows<boolean> = {
    sent: () => markEngineSent(ds, d.id),
    retry: (delayMs, reason) => markEngineRetry(ds, d.id, delayMs, reason),
    dead: (reason) => markEngineDead(ds, d.id, reason),
  };
  return settleDelivery(deliveryLife(retry), { status: 'pending', attempts: d.attempts }, command, rows);
}
