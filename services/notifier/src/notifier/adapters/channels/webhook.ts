import { EVENT_HEADER } from '@openq/contracts';
import type { ChannelSender, Notification, WebhookTarget } from './channel';
import { postSigned, type SignedPostOptions } from './signed-post';

export type WebhookSenderOptions = SignedPostOptions;

/** The body a webhook receives: the notification as the channels see it, plus its type. */
export function webhookBody(notification: Notification): string {
  return JSON.stringify({ type: `openq.notification.${notification.kind}`, ...notification });
}

/**
 * The generic outbound webhook (issue #17): POST the notification as JSON, signed, with
 * `X-Openq-Delivery-Id` = the delivery id and `X-Openq-Event` = its kind (`postSigned`: the
 * guarded client, which answers are retried, which are permanent).
 */
export class WebhookSender implements ChannelSender<WebhookTarget> {
  readonly kind = 'webhook' as const;

  constructor(private readonly options: WebhookSenderOptions) {}

  send(target: WebhookTarget, notification: Notification): Promise<void> {
    return postSigned(
      target,
      notification.id,
      webhookBody(notification),
      { [EVENT_HEADER]: notification.kind },
      this.options,
    );
  }
}
