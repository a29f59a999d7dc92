import type { EventContext } from '@openq/messaging';
import type { NotifierRuntime } from '../../../notifier-runtime';
import type { EngineSubscriptionHint } from '../../store/engine-subscription-hint';
import { planEngineDeliveries } from '../../store/engine-subscriptions.store';

/**
 * In each event's inbox transaction: one delivery per engine subscribed to it. The rows commit
 * with the message; the sender looks again shortly after, when some engine may be owed it. Only a
 * hint: the sender also looks every NOTIFIER_POLL_MS whatever it says.
 */
export async function planEngineDeliveriesHandler(
  runtime: NotifierRuntime,
  hint: EngineSubscriptionHint,
  event: Pick<EventContext, 'manager' | 'envelope' | 'streamSeq'>,
): Promise<void> {
  await planEngineDeliveries(event.manager, event.envelope, event.streamSeq);
  if (hint.maySubscribe()) setTimeout(() => runtime.sender?.kick(), 20).unref();
}
