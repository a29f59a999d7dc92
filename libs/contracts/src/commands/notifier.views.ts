import type { Language } from '../refusals';
import type { DeliveryStatus, EmailMode } from '../notifications';

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

/**
 * [openq] issue #17 a project's clock policy as stored (the notifier's `ClockPolicy`: `dueAfter`,
 * `reminders`, `escalateAfter`, `escalateTo`), or null when the project has none (no clock runs).
 */
export interface ClockPolicyView {
  projectId: string;
  policy: Record<string, unknown> | null;
  updatedBy: string | null;
  updatedAt: string | null;
}

/** [openq] issue #17 one person's working time (`timeZone`, `days`, `start`, `end`, `quietHours?`). */
export interface WorkingTimeView {
  userId: string;
  workingTime: Record<string, unknown>;
  /** True when the person set nothing: Monday to Friday, 09:00–18:00 UTC. */
  isDefault: boolean;
  updatedAt: string | null;
}

/** [openq] issue #17 where an open question stands on its project's clock (the inbox's marker). */
export interface ClockStateItem {
  questionId: string;
  /** The session author: the one who must answer, and who is late when it is overdue. */
  authorId: string;
  state: 'on_time' | 'due_soon' | 'overdue';
  dueAt: string;
  /** Notices already given for it (reminders, the due notice, escalations), oldest first. */
  notices: { kind: 'reminder' | 'due' | 'escalation'; step: number; to: string; at: string }[];
}

export interface ClockStateReply {
  projectId: string;
  /** False when the project has no clock policy: then `items` is empty. */
  clock: boolean;
  items: ClockStateItem[];
}

/**
 * [openq] issue #34 an engine's subscription as the API shows it: the secret never (only that it
 * is set), the URL in full (the engine gave it, with the service token).
 */
export interface EngineSubscriptionView {
  engineId: string;
  url: string;
  secretSet: true;
  projects: string[];
  events: string[];
  createdAt: string;
  updatedAt: string;
}

export interface EngineSubscriptionDeleted {
  engineId: string;
  deleted: true;
}

/** [openq] issue #34 the caller's Slack member id, linked in their settings (`null`: none). */
export interface SlackLinkView {
  userId: string;
  slackUserId: string | null;
  updatedAt: string | null;
}

/**
 * [openq] issue #30 a language setting: a person's (`userId`) or a project's (`projectId`);
 * `language: null` when none is set. `effective` (a person's, on a project): what openq writes
 * to them there — theirs, else the project's, else `en`.
 */
export interface LanguageView {
  userId?: string;
  projectId?: string;
  language: Language | null;
  updatedAt: string | null;
  effective?: Language;
}

/** [openq] issue #34 the openq user a Slack member id is linked to (`null`: nobody). */
export interface SlackUserReply {
  userId: string | null;
}
