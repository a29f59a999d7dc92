// The shape every notification channel writes to (issue #17). A channel renders a Notification
// that is already resolved (recipient, questions, what waits, links) and sends it to one target;
// it does no lookups of its own. The sender loop (../delivery) decides when to call send, retries
// a TransientSendError with backoff and dead-letters a PermanentSendError at once.

import type { Language, NotificationChannel, NotificationKind } from '@openq/contracts';

// The channels and kinds are libs/contracts' words (notifications.ts): the inbox names them too.
export type ChannelKind = NotificationChannel;
export type { NotificationKind };

export interface NotificationQuestion {
  questionId: string;
  pergunta: string;
  sugestao: string | null;
  autor: string;
  afeta: { regras: string[]; historias: string[]; tarefas: string[] };
  /** Set on question_answered: the answer given. */
  resposta?: string;
}

/** Issue #30 what waits on a notification's questions, as data: each channel says it in the reader's language. */
export type Wait =
  | { kind: 'gate'; gate: string; taskId: string }
  | { kind: 'analyst'; taskId: string }
  | { kind: 'work'; taskId: string };

/** What a channel renders: everything already resolved, no IO needed. */
export interface Notification {
  /** The delivery id: stable across retries (dedupe key for receivers; e-mail Message-ID). */
  id: string;
  kind: NotificationKind;
  projectId: string;
  recipientUserId: string;
  /** ISO instant of the event that caused the notification. */
  occurredAt: string;
  questions: NotificationQuestion[];
  /** What waits, in words (English, for webhooks' receivers): "QA gate on T-101", "analyst for T-20". */
  blocks: string[];
  /** Issue #30 the same as data (absent on rows queued before it: `blocks` is said as it is). */
  waits?: Wait[];
  /** Issue #30 the recipient's language (theirs, else the project's, else `en`), set at send time. */
  language?: Language;
  gate?: { taskId: string; gate: string; trigger?: string };
  /** Inbox card; one-tap accept (may be absent). */
  links: { open: string; accept?: string };
  /** The event that caused the notification (its eventId); optional, for receivers that log it. */
  eventId?: string;
  /** Clock notices only: when the question is due, which notice this is, who is late (escalation). */
  clock?: NotificationClock;
}

export interface NotificationClock {
  /** ISO instant the question is (or was) due, in its author's business time. */
  dueAt: string;
  /** `dueAt` on the recipient's own wall clock: `Wed 2 Dec, 17:00 (America/Sao_Paulo)`. */
  dueText: string;
  /** Issue #30 the recipient's time zone, so `dueAt` is said again in their language. */
  timeZone?: string;
  /** Reminders count from 1; the due notice and the escalation are 1. */
  step: number;
  /** Escalation only: who is late to answer (the question's author). */
  late?: string[];
}

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
