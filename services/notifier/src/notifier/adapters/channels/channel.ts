// The shape every notification channel writes to (issue #17). A channel renders a Notification
// that is already resolved (recipient, questions, what waits, links) and sends it to one target;
// it does no lookups of its own. The sender loop (../../commands/send-delivery) decides when to call send, retries
// a TransientSendError with backoff and dead-letters a PermanentSendError at once.

import type { NotificationChannel, NotificationKind } from '@openq/contracts';
import type { Notification } from './notification';

// The channels and kinds are libs/contracts' words (notifications.ts): the inbox names them too.
export type ChannelKind = NotificationChannel;
export type { NotificationKind };
// What a notification is as it leaves (./notification.ts); the domain's plans make what it says.
export type { Notification, NotificationQuestion } from './notification';
export type { NotificationClock, Wait } from '../../domain/notification';

/** Never retried: a 4xx, a bad address, a target that can never accept this message. */
export class PermanentSendError extends Error {
  override name = 'PermanentSendError';
}

/** Retried with backoff: a timeout, a 5xx, a refused connection. */
export class TransientSendError extends Error {
  override name = 'TransientSendError';
}

export interface ChannelSender<Target> {
  readonly kind: ChannelKind;
  send(target: Target, notification: Notification): Promise<void>;
}

export interface EmailTarget {
  address: string;
  mode: 'immediate' | 'hourly' | 'daily';
}
export interface SlackTarget {
  webhookUrl: string;
}
export interface WebhookTarget {
  url: string;
  secret: string;
}

/** The target of each channel kind. */
export interface ChannelTargets {
  email: EmailTarget;
  slack: SlackTarget;
  webhook: WebhookTarget;
}
