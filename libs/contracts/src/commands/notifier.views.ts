import type { DeliveryStatus, EmailMode } from '../http/notification-channels.dto';

/**
 * [openq] issue #17 the caller's channels as the API shows them: secrets never in full (a Slack
 * URL and a webhook URL show their origin and last 4 characters; a signing secret only that it is set).
 */
export interface NotificationChannelsView {
  projectId: string;
  userId: string;
  email: { address: string; mode: EmailMode; enabled: boolean; updatedAt: string } | null;
  slack: { webhookUrl: string; enabled: boolean; updatedAt: string } | null;
  webhook: { url: string; secretSet: true; enabled: boolean; updatedAt: string } | null;
}

/** [openq] issue #17 one delivery: one notification of one event to one channel of one person. */
export interface DeliveryView {
  /** The delivery id: `X-Openq-Delivery-Id`, the e-mail's Message-ID; stable across retries. */
  deliveryId: string;
  eventId: string;
  kind: string;
  channel: string;
  status: DeliveryStatus;
  attempts: number;
  /** Why the last attempt failed (a dead letter's reason); null when none failed. */
  lastError: string | null;
  createdAt: string;
  nextAttemptAt: string | null;
  sentAt: string | null;
  deadAt: string | null;
}

export interface DeliveryListReply {
  items: DeliveryView[];
  total: number;
  limit: number;
}

export interface RedeliverReply {
  deliveryId: string;
  status: 'pending';
}
