import { affectsToWire } from '@openq/contracts';
import type { Language, NotificationKind } from '@openq/contracts';
import type { NotificationClock, NotifiedQuestion, Wait } from '../../domain/notification';

/*
 * What a notification is as it leaves the notifier (issue #17): what every channel renders, what
 * a delivery row keeps (`notification_delivery.notification`) and what a webhook's receiver gets.
 * Everything resolved, no IO needed. Its questions keep the wire's words (`pergunta`, `afeta`, …):
 * the domain's plans say them in English and `notificationQuestion` maps them here (issue #31).
 */

export interface NotificationQuestion {
  questionId: string;
  pergunta: string;
  sugestao: string | null;
  autor: string;
  afeta: { regras: string[]; historias: string[]; tarefas: string[] };
  /** Set on question_answered: the answer given. */
  resposta?: string;
}

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

/** A planned question in the wire's words (the keys in this order: the bodies stay as they were). */
export function notificationQuestion(q: NotifiedQuestion): NotificationQuestion {
  return {
    questionId: q.questionId,
    pergunta: q.question,
    sugestao: q.suggestion,
    autor: q.askedBy,
    afeta: affectsToWire(q.affects),
    ...(q.answer !== undefined ? { resposta: q.answer } : {}),
  };
}
