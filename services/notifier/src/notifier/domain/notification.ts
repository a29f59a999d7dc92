import type { Language, NotificationKind } from '@openq/contracts';

/*
 * What a notification is (issue #17), as the notifier's plans make it and every channel renders
 * it (`adapters/channels/channel.ts` re-exports these for the channels): everything resolved,
 * no IO needed.
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
