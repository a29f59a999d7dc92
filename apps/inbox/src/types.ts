// Shapes the page's modules hand each other (the server's come from @openq/contracts/browser).
import type { OpenQuestionView } from '@openq/contracts/browser';
import type { PageError } from './api';

/** What a card tells the page after an answer, a withdrawal, or a refusal that took it away. */
export interface CardOutcome {
  question: OpenQuestionView;
  reply: unknown;
  position?: number;
  /** The refusal after which the card cannot be answered from here (it left the queue). */
  gone?: PageError | null;
  withdrawn?: boolean;
}

/** The inbox's views of a project: its queue, its settings, its question quality. */
export type View = 'inbox' | 'settings' | 'analytics';
