import { alertRules, RULE_GROUPS } from './alerts';
import { dashboardQueries } from './dashboard';

/**
 * Every metric a rule or a panel reads, with the labels its series carry (besides the scrape's
 * `job` and `instance`). The scrape test proves a started stack exposes each of them with exactly
 * these labels, so a renamed metric or label breaks the build instead of silencing an alert.
 */
export const METRIC_LABELS: Record<string, readonly string[]> = {
  up: [],
  openq_notifications_dead_lettered_total: ['channel'],
  http_request_duration_seconds_count: ['service', 'method', 'route', 'status_code'],
  http_request_duration_seconds_bucket: ['service', 'method', 'route', 'status_code', 'le'],
  openq_request_duration_seconds_count: ['service', 'verb', 'status'],
  openq_request_duration_seconds_bucket: ['service', 'verb', 'status', 'le'],
  openq_event_handling_duration_seconds_bucket: ['consumer', 'type', 'outcome', 'le'],
  openq_gate_answer_to_resume_seconds_bucket: ['gate', 'le'],
  openq_service_ready: ['service'],
  openq_dead_letters_total: ['consumer', 'reason'],
  openq_inbox_duplicates_total: ['consumer'],
  openq_consumer_pending_messages: ['consumer'],
  openq_consumer_ack_pending_messages: ['consumer'],
  openq_consumer_present: ['consumer', 'stream'],
  openq_stream_present: ['stream'],
  openq_outbox_backlog_rows: ['service'],
  openq_outbox_published_total: ['service'],
  openq_open_questions: ['service'],
  openq_oldest_open_question_age_seconds: ['service', 'project'],
  openq_gate_cycles_parked: ['service', 'reason'],
  openq_gate_parked_oldest_age_seconds: ['service', 'reason'],
  openq_question_quality_7d: ['service', 'role', 'figure'],
  openq_question_quality_minutes_7d: ['service', 'role', 'figure'],
  nodejs_eventloop_lag_p99_seconds: [],
  process_cpu_seconds_total: [],
  process_resident_memory_bytes: [],
};

/** Metric names in a PromQL expression: the openq, HTTP and Node.js ones, and `up`. */
export function metricNamesIn(expr: string): string[] {
  const names = expr.match(/\b(?:openq|http|nodejs|process)_[a-z0-9_]+\b|\bup(?=\{)/g) ?? [];
  return [...new Set(names)];
}

/** Every expression the rules and the dashboard evaluate. */
export function monitoredExpressions(): { where: string; expr: string }[] {
  return [
    ...RULE_GROUPS.flatMap((g) =>
      g.rules.map((r) => ({ where: 'alert' in r ? `alert ${r.alert}` : `record ${r.record}`, expr: r.expr })),
    ),
    ...dashboardQueries().map((q) => ({ where: `panel ${q.panel}`, expr: q.expr })),
  ];
}

export function referencedMetrics(): string[] {
  return [...new Set(monitoredExpressions().flatMap((e) => metricNamesIn(e.expr)))].sort();
}

export { alertRules };
