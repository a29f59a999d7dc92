import type { EntityManager } from 'typeorm';
import {
  ANALYTICS_ROLES,
  type AnalyticsCommand,
  type AnalyticsGrouping,
  type AnalyticsReply,
  type AnalyticsRow,
} from '@openq/contracts';

/** A window of instants: `from` included, `until` excluded. */
export interface AnalyticsWindow {
  from: Date;
  until: Date;
}

/**
 * §12.4 the figures, each counted at the instant of its own fact (docs/decisions.md, issue #33):
 * asked at the declaration, answered / accepted / answer time at the answer, withdrawn and amended
 * at theirs, joined and precedents at the ask-once event, parked time at the resume. Every figure
 * but joined and precedents belongs to the question's asking role (`autor`); joined and precedents
 * to the role that asked again. Parked time: a cycle parked on a user decision
 * (`gate.rescue_parked`, reason `user_decision`) until its next `gate.resumed`; by role, once for
 * each role among the questions it waited on. A question whose declaration has not arrived yet is
 * left out until it does.
 */
function factsSql(by: AnalyticsGrouping, allProjects: boolean): string {
  // Each branch filters on its own instant, so each reads its index (`analytics_question_*`), not
  // the whole table; `$1::text IS NULL` (every project: the gauges) folds to true when planned.
  const project = allProjects ? '$1::text IS NULL' : 'project_id = $1';
  const question = `${project} AND autor IS NOT NULL AND declared_at IS NOT NULL`;
  const within = (column: string) => `${column} >= $2 AND ${column} < $3`;
  const resumed = `SELECT r.at FROM analytics_gate_event r
     WHERE r.project_id = p.project_id AND r.task_id = p.task_id AND r.gate = p.gate
       AND r.kind = 'resumed' AND r.at >= p.at
     ORDER BY r.at, r.event_id LIMIT 1`;
  const parks = `SELECT p.event_id, p.project_id, p.question_ids, r.at, extract(epoch FROM r.at - p.at)::float8 / 60 AS minutes
     FROM analytics_gate_event p, LATERAL (${resumed}) r
    WHERE ${allProjects ? project : 'p.project_id = $1'} AND p.kind = 'parked' AND p.reason = 'user_decision'
      AND p.at < $3 AND ${within('r.at')}`;
  const parked =
    by === 'role'
      ? `SELECT DISTINCT k.event_id, aq.autor AS role, k.at, k.minutes
           FROM (${parks}) k JOIN analytics_question aq
             ON aq.project_id = k.project_id AND aq.question_id = ANY (k.question_ids) AND aq.autor IS NOT NULL`
      : `SELECT k.event_id, NULL::text AS role, k.at, k.minutes FROM (${parks}) k`;
  return `
      SELECT autor AS role, declared_at AS at, 'asked' AS kind, NULL::float8 AS minutes
        FROM analytics_question WHERE ${question} AND ${within('declared_at')}
      UNION ALL
      SELECT autor, answered_at, CASE WHEN via_agente IS NULL THEN 'click' ELSE 'agent' END,
             extract(epoch FROM answered_at - declared_at)::float8 / 60
        FROM analytics_question WHERE ${question} AND ${within('answered_at')}
      UNION ALL
      SELECT autor, answered_at, 'accepted', NULL
        FROM analytics_question WHERE ${question} AND accepted AND ${within('answered_at')}
      UNION ALL
      SELECT autor, withdrawn_at, 'withdrawn', NULL
        FROM analytics_question WHERE ${question} AND ${within('withdrawn_at')}
      UNION ALL
      SELECT autor, amended_at, 'amended', NULL
        FROM analytics_question WHERE ${question} AND ${within('amended_at')}
      UNION ALL
      SELECT autor, at, kind, NULL FROM analytics_asker_event WHERE ${project} AND ${within('at')}
      UNION ALL
      SELECT role, at, 'parked', minutes FROM (${parked}) p`;
}

const figures = `
  count(*) FILTER (WHERE kind = 'asked')::int AS asked,
  count(*) FILTER (WHERE kind = 'joined')::int AS joined,
  count(*) FILTER (WHERE kind = 'precedent')::int AS precedents,
  count(*) FILTER (WHERE kind = 'withdrawn')::int AS withdrawn,
  count(*) FILTER (WHERE kind = 'click')::int AS answered_by_click,
  count(*) FILTER (WHERE kind = 'agent')::int AS answered_by_agent,
  count(*) FILTER (WHERE kind = 'accepted')::int AS suggestion_accepted,
  count(*) FILTER (WHERE kind = 'amended')::int AS amended,
  round((percentile_cont(0.5) WITHIN GROUP (ORDER BY minutes) FILTER (WHERE kind IN ('click', 'agent')))::numeric, 2) AS answer_p50,
  round((percentile_cont(0.9) WITHIN GROUP (ORDER BY minutes) FILTER (WHERE kind IN ('click', 'agent')))::numeric, 2) AS answer_p90,
  round((percentile_cont(0.5) WITHIN GROUP (ORDER BY minutes) FILTER (WHERE kind = 'parked'))::numeric, 2) AS parked_p50`;

interface RawRow {
  key: string;
  asked: number;
  joined: number;
  precedents: number;
  withdrawn: number;
  answered_by_click: number;
  answered_by_agent: number;
  suggestion_accepted: number;
  amended: number;
  answer_p50: string | null;
  answer_p90: string | null;
  parked_p50: string | null;
}

/** `openq.context.analytics`: §12.4 question quality of a project over days `from`..`to` (UTC, both included). */
export async function questionQuality(
  manager: EntityManager,
  cmd: AnalyticsCommand,
): Promise<AnalyticsReply> {
  const window = {
    from: new Date(`${cmd.from}T00:00:00Z`),
    until: new Date(Date.parse(`${cmd.to}T00:00:00Z`) + 86_400_000),
  };
  const rows = await analyticsRows(manager, cmd.projectId, window, cmd.by);
  return { rows, from: cmd.from, to: cmd.to };
}

/**
 * The rows of one project (or of every project, `projectId` null: the metrics) in `window`: by
 * role, the roles with any figure, in the order of §3.1; by week, every week (Monday, UTC) the
 * window touches, empty ones too, oldest first. One statement, so every figure comes from one snapshot.
 */
export async function analyticsRows(
  manager: EntityManager,
  projectId: string | null,
  window: AnalyticsWindow,
  by: AnalyticsGrouping,
): Promise<AnalyticsRow[]> {
  const params = [projectId, window.from.toISOString(), window.until.toISOString()];
  const sql =
    by === 'role'
      ? `SELECT role AS key, ${figures} FROM (${factsSql(by, projectId === null)}) f
          GROUP BY role ORDER BY array_position($4::text[], role), role`
      : `SELECT to_char(w.week, 'YYYY-MM-DD') AS key, ${figures}
           FROM generate_series(date_trunc('week', $2::timestamptz AT TIME ZONE 'UTC'),
                                ($3::timestamptz AT TIME ZONE 'UTC') - interval '1 day', interval '1 week') AS w(week)
           LEFT JOIN (${factsSql(by, projectId === null)}) f ON date_trunc('week', f.at AT TIME ZONE 'UTC') = w.week
          GROUP BY w.week ORDER BY w.week`;
  const rows: RawRow[] = await manager.query(sql, by === 'role' ? [...params, ANALYTICS_ROLES] : params);
  return rows.map(toRow);
}

const minutes = (value: string | null): number | null => (value === null ? null : Number(value));

function toRow(r: RawRow): AnalyticsRow {
  return {
    key: r.key,
    asked: r.asked,
    joined: r.joined,
    precedents: r.precedents,
    withdrawn: r.withdrawn,
    answeredByClick: r.answered_by_click,
    answeredByAgent: r.answered_by_agent,
    suggestionAccepted: r.suggestion_accepted,
    amended: r.amended,
    answerMinutesP50: minutes(r.answer_p50),
    answerMinutesP90: minutes(r.answer_p90),
    parkedMinutesP50: minutes(r.parked_p50),
  };
}
