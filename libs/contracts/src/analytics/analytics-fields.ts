import { pickRefusals } from '../refusals';
import { QUESTION_AUTHORS, type QuestionAuthor } from '../vocabulary';

// [openq] issue #30 the analytics' plain data (fields, rows, reasons): what a browser may import.
// analytics.ts adds the query's validators and the computations.

/**
 * SPEC §12.4 question quality: per project, per asking role or per week, what the logs say about
 * the questions asked. One row's figures, in the order the CSV writes them.
 */
export const ANALYTICS_FIELDS = [
  'key',
  'asked',
  'joined',
  'precedents',
  'withdrawn',
  'answeredByClick',
  'answeredByAgent',
  'suggestionAccepted',
  'amended',
  'answerMinutesP50',
  'answerMinutesP90',
  'parkedMinutesP50',
] as const;

export interface AnalyticsRow {
  /** `by=role`: the asking role (`autor`); `by=week`: the week's Monday (UTC), `YYYY-MM-DD`. */
  key: string;
  asked: number;
  joined: number;
  precedents: number;
  withdrawn: number;
  answeredByClick: number;
  answeredByAgent: number;
  suggestionAccepted: number;
  amended: number;
  /** Minutes from declared to answered, 2 decimals; null with no answer in the row. */
  answerMinutesP50: number | null;
  answerMinutesP90: number | null;
  /** Minutes a gate cycle stayed parked on a user decision, 2 decimals; null with none resumed. */
  parkedMinutesP50: number | null;
}

export const ANALYTICS_GROUPINGS = ['role', 'week'] as const;
export type AnalyticsGrouping = (typeof ANALYTICS_GROUPINGS)[number];

/** The keys of `by=role` rows, in this order (the role set of §3.1, bounded: also the metrics' labels). */
export const ANALYTICS_ROLES: readonly QuestionAuthor[] = QUESTION_AUTHORS;

/** [openq] Without `from`, the 12 weeks up to `to` (84 days, `to` included). */
export const ANALYTICS_DEFAULT_DAYS = 84;
/** [openq] At most a year and a day per request (the read is one statement over the window). */
export const ANALYTICS_MAX_DAYS = 366;

/** `GET /projects/:projectId/analytics` reply (and `openq.context.analytics`). */
export interface AnalyticsReply {
  rows: AnalyticsRow[];
  /** The window, both days included (UTC), as applied (defaults filled in). */
  from: string;
  to: string;
}

/** The refusal of a window that is not one: `from` after `to`, or longer than the maximum. */
export const ANALYTICS_REASONS = pickRefusals('periodo_invalido');

export const AnalyticsReason = { badPeriod: 'periodo_invalido' } as const satisfies Record<
  string,
  keyof typeof ANALYTICS_REASONS
>;
