import {
  PermanentSendError,
  TransientSendError,
  type ChannelSender,
  type Notification,
  type WebhookTarget,
} from './channel';
import { DELIVERY_ID_HEADER, SIGNATURE_HEADER, signatureHeader } from './signature';

export interface WebhookSenderOptions {
  /** How long one POST may take, connect to last byte. */
  timeoutMs: number;
  /** The clock, in ms (tests). */
  now?: () => number;
}

/** The body a webhook receives: the notification as the channels see it, plus its type. */
export function webhookBody(notification: Notification): string {
  return JSON.stringify({ type: `openq.notification.${notification.kind}`, ...notification });
}

/**
 * The generic outbound webhook (issue #17): POST the notification as JSON, signed
 * (`X-Openq-Signature`), with `X-Openq-Delivery-Id` = the delivery id, the same on every retry, so
 * a receiver dedupes on it. 2xx is delivered; 408, 425, 429, 5xx, a timeout or a connection
 * failure are retried; any other answer (4xx, a redirect, which is not followed) is permanent.
 * Errors never carry the URL (it may hold a token) nor the secret.
 */
export class WebhookSender implements ChannelSender<WebhookTarget> {
  readonly kind = 'webhook' as const;

  constructor(private readonly options: WebhookSenderOptions) {}

  async send(target: WebhookTarget, notification: Notification): Promise<void> {
    const body = webhookBody(notification);
    const timestamp = Math.floor((this.options.now?.() ?? Date.now()) / 1000);
    let response: Response;
    try {
      response = await fetch(target.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json; charset=utf-8',
          'user-agent': 'openq-notifier',
          [DELIVERY_ID_HEADER]: notification.id,
          'X-Openq-Event': notification.kind,
          [SIGNATURE_HEADER]: signatureHeader(target.secret, timestamp, body),
        },
        body,
        redirect: 'manual',
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
    } catch (error) {
      const name = (error as { name?: string }).name;
      if (name === 'TimeoutError' || name === 'AbortError')
        throw new TransientSendError(`timeout after ${this.options.timeoutMs} ms`);
      const code = (error as { cause?: { code?: string } }).cause?.code;
      throw new TransientSendError(`connection failed${code ? ` (${code})` : ''}`);
    }
    // The body is not needed; read it so the connection is released.
    await response.arrayBuffer().catch(() => undefined);
    if (response.status >= 200 && response.status < 300) return;
    const text = `HTTP ${response.status}`;
    if (
      response.status === 408 ||
      response.status === 425 ||
      response.status === 429 ||
      response.status >= 500
    )
      throw new TransientSendError(text);
    throw new PermanentSendError(text);
  }
}
