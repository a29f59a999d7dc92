import { isRefusal, type Decider } from '@openq/contracts';
import type { DeliveryCommand, DeliveryEvent, DeliveryState } from '../../domain/delivery';

/** How one kind of delivery row records an outcome: one statement each (the sender's bench counts them). */
export interface DeliveryRows<Died> {
  sent(): Promise<void>;
  retry(delayMs: number, reason: string): Promise<void>;
  dead(reason: string): Promise<Died>;
}

export type Settled<Died> =
  | { event: Exclude<DeliveryEvent, { type: 'delivery.given_up' }> | undefined }
  | { event: Extract<DeliveryEvent, { type: 'delivery.given_up' }>; died: Died };

/**
 * One outcome of a claimed delivery (sent, failed, nothing to send it through): the delivery
 * decider says what it means for the row — sent, tried again after the backoff, or given up —
 * and the row records it with the one statement it took before the decider (no read: the claim
 * loaded the state). The sender loops of notifications, digests and engines all settle here.
 */
export async function settleDelivery<Died>(
  decider: Decider<DeliveryCommand, DeliveryState, DeliveryEvent>,
  claimed: DeliveryState,
  command: DeliveryCommand,
  rows: DeliveryRows<Died>,
  now: Date = new Date(),
): Promise<Settled<Died>> {
  const decision = decider.decide(command, claimed, now);
  if (isRefusal(decision)) throw new Error(`delivery decider refused: ${decision.reason}`);
  const [event] = decision;
  switch (event?.type) {
    case 'delivery.sent':
      await rows.sent();
      return { event };
    case 'delivery.retry_scheduled':
      await rows.retry(event.data.delayMs, event.data.reason);
      return { event };
    case 'delivery.given_up':
      return { event, died: await rows.dead(event.data.reason) };
    default:
      return { event };
  }
}
