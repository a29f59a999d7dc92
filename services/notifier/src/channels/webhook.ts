import {
  guardedRequest,
  OutboundError,
  PUBLIC_ONLY,
  statusClass,
  type OutboundPolicy,
} from '@openq/platform';
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
  /** Which targets may be reached (issue #27): public addresses only unless the operator allows more. */
  policy?: OutboundPolicy;
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
 * It goes through the guarded client (`guardedRequest`, issue #27): a target that is not public
 * fails `destino_nao_permitido` before a byte leaves. Errors carry their class (`failure`) for the
 * API and a detail for the log, never the URL's path (it may hold a token) nor the secret.
 */
export class WebhookSender implements ChannelSender<WebhookTarget> {
  readonly kind = 'webhook' as const;

  constructor(private readonly options: WebhookSenderOptions) {}

  async send(target: WebhookTarget, notification: Notification): Promise<void> {
    const body = webhookBody(notification);
    const timestamp = Math.floor((this.options.now?.() ?? Date.now()) / 1000);
    let status: number;
    try {
      ({ status } = await guardedRequest(
        target.url,
        {
          headers: {
            'content-type': 'application/json; charset=utf-8',
            'user-agent': 'openq-notifier',
            [DELIVERY_ID_HEADER]: notification.id,
            'X-Openq-Event': notification.kind,
            [SIGNATURE_HEADER]: signatureHeader(target.secret, timestamp, body),
          },
          body,
          timeoutMs: this.options.timeoutMs,
        },
        this.options.policy ?? PUBLIC_ONLY,
      ));
    } catch (error) {
      if (!(error instanceof OutboundError)) throw error;
      const Failure = error.transient ? TransientSendError : PermanentSendError;
      throw Object.assign(new Failure(error.detail), { failure: error.failure });
    }
    if (status >= 200 && status < 300) return;
    const text = `HTTP ${status}`;
    const failure = statusClass(status);
    if (status === 408 || status === 425 || status === 429 || status >= 500)
      throw Object.assign(new TransientSendError(text), { failure });
    throw Object.assign(new PermanentSendError(text), { failure });
  }
}
