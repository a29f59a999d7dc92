import type { Affects } from '@openq/contracts';
/*
 * What the notifier's plans say about a notification (issue #17), in the domain's own words. The
 * channels render the outbound shape (`adapters/channels/notification.ts`): the delivery rows and
 * the webhooks' bodies keep the wire's words, mapped from these at the edge (issue #31).
 */

/** What a question affects: the rules, stories and tasks it names (the contract's `Affects`). */
export type { Affects } from '@openq/contracts';

/** A question as a notification tells it. */
export interface NotifiedQuestion {
  questionId: string;
  /** The question's words. */
  question: string;
  suggestion: string | null;
  /** The asking agent's role (`po`, `qa-agent`, …). */
  askedBy: string;
  affects: Affects;
  /** Set on question_answered: the answer given. */
  answer?: string;
}

/** Issue #30 what waits on a notification's questions, as data: each channel says it in the reader's language. */
export type Wait =
  | { kind: 'gate'; gate: string; taskId: string }
  | { kind: 'analyst'; taskId: string }
  | { kind: 'work'; taskId: string };

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
