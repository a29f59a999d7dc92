import type { ServiceGauge } from '@openq/platform';
import { ANALYTICS_ROLES, type AnalyticsRow } from '@openq/contracts';
import { analyticsRows } from './queries/analytics.query';

/** The window of the question-quality gauges: the last 7 days, whatever the project. */
export const ANALYTICS_GAUGE_WINDOW_MS = 7 * 86_400_000;

const COUNTS = {
  asked: 'asked',
  joined: 'joined',
  precedents: 'precedents',
  withdrawn: 'withdrawn',
  answered_by_click: 'answeredByClick',
  answered_by_agent: 'answeredByAgent',
  suggestion_accepted: 'suggestionAccepted',
  amended: 'amended',
} as const satisfies Record<string, keyof AnalyticsRow>;

const MINUTES = {
  answer_p50: 'answerMinutesP50',
  answer_p90: 'answerMinutesP90',
  parked_p50: 'parkedMinutesP50',
} as const satisfies Record<string, keyof AnalyticsRow>;

/** One read per scrape for both gauges (they are collected one after the other). */
function lastWeekByRole(): (
  ds: Parameters<ServiceGauge['collect']>[0],
) => Promise<Map<string, AnalyticsRow>> {
  let cached: { at: number; rows: Promise<Map<string, AnalyticsRow>> } | null = null;
  return (ds) => {
    const now = Date.now();
    if (!cached || now - cached.at > 1000) {
      const window = { from: new Date(now - ANALYTICS_GAUGE_WINDOW_MS), until: new Date(now) };
      cached = {
        at: now,
        rows: analyticsRows(ds.manager, null, window, 'role').then(
          (rows) => new Map(rows.map((r) => [r.key, r])),
        ),
      };
    }
    return cached.rows;
  };
}

/**
 * §12.4 question quality per asking role over the last 7 days, all projects together, read from
 * the read model on each scrape (`analyticsRows`, the statement the route runs). Labels are
 * bounded: `role` is one of the six authors of §3.1, `figure` one of a fixed list; every count
 * series is always present (0), a minutes series only when there was a sample.
 */
export function analyticsGauges(): ServiceGauge[] {
  const read = lastWeekByRole();
  return [
    {
      name: 'openq_question_quality_7d',
      help: 'Questions over the last 7 days per asking role: asked, joined, precedents, withdrawn, answered_by_click, answered_by_agent, suggestion_accepted, amended (SPEC §12.4)',
      labelNames: ['role', 'figure'],
      collect: async (ds) => {
        const rows = await read(ds);
        return ANALYTICS_ROLES.flatMap((role) =>
          Object.entries(COUNTS).map(([figure, field]) => ({
            labels: { role, figure },
            value: rows.get(role)?.[field] ?? 0,
          })),
        );
      },
    },
    {
      name: 'openq_question_quality_minutes_7d',
      help: 'Minutes over the last 7 days per asking role: answer_p50, answer_p90 (declared → answered), parked_p50 (a gate parked on a user decision → resumed) (SPEC §12.4)',
      labelNames: ['role', 'figure'],
      collect: async (ds) => {
        const rows = await read(ds);
        return ANALYTICS_ROLES.flatMap((role) =>
          Object.entries(MINUTES).flatMap(([figure, field]) => {
            const value = rows.get(role)?.[field] ?? null;
            return value === null ? [] : [{ labels: { role, figure }, value }];
          }),
        );
      },
    },
  ];
}
