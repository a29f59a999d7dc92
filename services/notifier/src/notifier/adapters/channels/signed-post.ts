import { DELIVERY_ID_HEADER, SIGNATURE_HEADER, signatureHeader } from '@openq/contracts';
import {
  guardedRequest,
  OutboundError,
  PUBLIC_ONLY,
  statusClass,
  type OutboundPolicy,
} from '@openq/platform';
import { PermanentSendError, TransientSendError } from './channel';

export interface SignedPostOptions {
  /** How long one POST may take, connect to last byte. */
  timeoutMs: number;
  /** The clock, in ms (tests). */
  now?: () => number;
  /** Which targets may be reached (issue #27): public addresses only unless the operator allows more. */
  policy?: OutboundPolicy;
}

/**
 * One signed JSON POST to a receiver openq was given (a person's webhook, issue #17; an engine's
 * subscription, issue #34): `X-Openq-Signature` over the body, `X-Openq-Delivery-Id` = the
 * delivery id (the same on every retry, so the receiver dedupes on it), through the guarded client
 * (a target that is not public fails `destino_nao_permitido` before a byte leaves). 2xx is
 * delivered; 408, 425, 429, 5xx, a timeout or a connection failure throw TransientSendError (retried);
 * any other answer (4xx, a redirect, which is not followed) PermanentSendError. Errors carry their
 * class (`failure`) for the API and a detail for the log, never the URL's path nor the secret.
 */
export async function postSigned(
  target: { url: string; secret: string },
  deliveryId: string,
  body: string,
  headers: Record<string, string>,
  options: SignedPostOptions,
): Promise<void> {
  const timestamp = Math.floor((options.now?.() ?? Date.now()) / 1000);
  let status: number;
  try {
    ({ status } = await guardedRequest(
      target.url,
      {
        headers: {
          'content-type': 'application/json; charset=utf-8',
          'user-agent': 'openq-notifier',
          ...headers,
          [DELIVERY_ID_HEADER]: deliveryId,
          [SIGNATURE_HEADER]: signatureHeader(target.secret, timestamp, body),
        },
        body,
        timeoutMs: options.timeoutMs,
      },
      options.policy ?? PUBLIC_ONLY,
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
