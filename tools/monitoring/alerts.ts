/*
 * openq's Prometheus rules, as data: the SLO recording rules and the alerts, each alert with a
 * severity, a summary for a person woken at 3 a.m., and a `runbook_url` to its section of
 * docs/operations.md. `tools/render-monitoring.ts` writes them as a rules file
 * (deploy/prometheus/alerts.yml, what promtool tests and compose's Prometheus load) and as the
 * same groups in a `PrometheusRule` (deploy/k8s/monitoring/prometheus-rule.yaml).
 */

export interface RecordingRule {
  record: string;
  expr: string;
}

export interface AlertRule {
  alert: string;
  expr: string;
  for?: string;
  labels: { severity: 'critical' | 'warning' };
  annotations: { summary: string; description: string; runbook_url: string };
}

export interface RuleGroup {
  name: string;
  interval?: string;
  rules: (RecordingRule | AlertRule)[];
}

/** Where docs/operations.md is published; each alert links to `<base>#<alert name, lowercased>`. */
export const RUNBOOK_BASE_URL = 'https://git.example.com/openq/openq/blob/main/docs/operations.md';

/** Scrape job of the four services (compose's prometheus.yml; the PodMonitor's jobLabel in k8s). */
export const SCRAPE_JOB = 'openq';

export const SERVICES = ['questions', 'gates', 'context', 'notifier', 'gateway'] as const;

/** Availability SLO: 99.9 % of requests answered without a server error (5xx). */
export const AVAILABILITY_SLO = 0.999;
/** Latency SLO: 99 % of requests answered within LATENCY_SLO_SECONDS (a histogram bucket bound). */
export const LATENCY_SLO = 0.99;
export const LATENCY_SLO_SECONDS = 1;
/** The policy: a question may hold a gate parked on a user decision this long without a change. */
export const QUESTION_BLOCKING_POLICY_SECONDS = 24 * 3600;
/** Consumer lag worth a look when it keeps growing. */
export const CONSUMER_LAG_THRESHOLD = 100;

export const SLO_WINDOWS = ['5m', '30m', '1h', '6h'] as const;
type Window = (typeof SLO_WINDOWS)[number];

/** Multi-window, multi-burn-rate (the SRE workbook): page on 2 % of a 30-day budget in 1 h, ticket on 5 % in 6 h. */
export const BURN_RATES = {
  fast: { long: '1h', short: '5m', factor: 14.4, for: '2m', severity: 'critical' },
  slow: { long: '6h', short: '30m', factor: 6, for: '15m', severity: 'warning' },
} as const;

/** Requests the SLOs count: request/reply answered by the domain services, the gateway's HTTP API. */
const HEALTH_ROUTES = 'route!~"/healthz|/readyz|/metrics"';
const domainRequests = (w: Window, matcher = '') =>
  `sum by (service) (rate(openq_request_duration_seconds_count${matcher}[${w}]))`;
const gatewayRequests = (w: Window, matcher = '') =>
  `sum by (service) (rate(http_request_duration_seconds_count{service="gateway",${HEALTH_ROUTES}${matcher}}[${w}]))`;
const le = String(LATENCY_SLO_SECONDS);

function sloRecordingRules(w: Window): RecordingRule[] {
  return [
    {
      record: `openq:requests:rate${w}`,
      expr: `${domainRequests(w)}\nor\n${gatewayRequests(w)}`,
    },
    {
      // Zero (not absent) for a service without errors: its error series do not exist yet.
      record: `openq:request_errors:rate${w}`,
      expr:
        `${domainRequests(w, '{status=~"5.."}')}\nor\n${gatewayRequests(w, ',status_code=~"5.."')}` +
        `\nor\nopenq:requests:rate${w} * 0`,
    },
    {
      record: `openq:requests_within_slo:rate${w}`,
      expr:
        `sum by (service) (rate(openq_request_duration_seconds_bucket{le="${le}"}[${w}]))\nor\n` +
        `sum by (service) (rate(http_request_duration_seconds_bucket{service="gateway",${HEALTH_ROUTES},le="${le}"}[${w}]))`,
    },
    {
      record: `openq:request_error_ratio:rate${w}`,
      expr: `openq:request_errors:rate${w} / openq:requests:rate${w}`,
    },
    {
      record: `openq:request_slow_ratio:rate${w}`,
      expr: `1 - openq:requests_within_slo:rate${w} / openq:requests:rate${w}`,
    },
  ];
}

function runbook(alert: string): string {
  return `${RUNBOOK_BASE_URL}#${alert.toLowerCase()}`;
}

function alert(
  name: string,
  severity: AlertRule['labels']['severity'],
  expr: string,
  forDuration: string | undefined,
  summary: string,
  description: string,
): AlertRule {
  return {
    alert: name,
    expr,
    ...(forDuration ? { for: forDuration } : {}),
    labels: { severity },
    annotations: { summary, description, runbook_url: runbook(name) },
  };
}

function burnAlerts(): AlertRule[] {
  const budgets = [
    {
      kind: 'Error',
      ratio: 'request_error_ratio',
      budget: 1 - AVAILABILITY_SLO,
      what: 'were server errors (5xx)',
    },
    {
      kind: 'Latency',
      ratio: 'request_slow_ratio',
      budget: 1 - LATENCY_SLO,
      what: `took longer than ${LATENCY_SLO_SECONDS} s`,
    },
  ] as const;
  return budgets.flatMap((b) =>
    (['fast', 'slow'] as const).map((speed) => {
      const r = BURN_RATES[speed];
      const threshold = Number((r.factor * b.budget).toFixed(6));
      return alert(
        `Openq${b.kind}BudgetBurn${speed === 'fast' ? 'Fast' : 'Slow'}`,
        r.severity,
        `openq:${b.ratio}:rate${r.long} > ${threshold}\nand\nopenq:${b.ratio}:rate${r.short} > ${threshold}`,
        r.for,
        `{{ $labels.service }} is burning its ${b.kind.toLowerCase()} budget ${r.factor}× too fast`,
        `Over the last ${r.long} (and still over the last ${r.short}) {{ $value | humanizePercentage }} of the ` +
          `requests {{ $labels.service }} answered ${b.what}; the SLO allows ${Number((b.budget * 100).toFixed(3))} %. ` +
          `At this rate the 30-day budget is gone in ${Math.round((30 * 24) / r.factor)} hours.`,
      );
    }),
  );
}

export const RULE_GROUPS: RuleGroup[] = [
  {
    name: 'openq-slo-recording',
    rules: SLO_WINDOWS.flatMap(sloRecordingRules),
  },
  {
    name: 'openq-slo',
    rules: burnAlerts(),
  },
  {
    name: 'openq-services',
    rules: [
      alert(
        'OpenqTargetDown',
        'critical',
        `up{job="${SCRAPE_JOB}"} == 0`,
        '2m',
        '{{ $labels.instance }} does not answer /metrics',
        'Prometheus could not scrape {{ $labels.instance }} for 2 minutes: the process is down, restarting, or its event loop is stuck.',
      ),
      alert(
        'OpenqServiceAbsent',
        'critical',
        SERVICES.map((s) => `absent(openq_service_ready{service="${s}"})`).join('\nor\n'),
        '5m',
        'No {{ $labels.service }} process reports to Prometheus',
        'Not one {{ $labels.service }} process has been scraped for 5 minutes: it is not deployed, scaled to zero, or Prometheus does not discover it.',
      ),
      alert(
        'OpenqServiceNotReady',
        'critical',
        'openq_service_ready == 0',
        '5m',
        '{{ $labels.service }} on {{ $labels.instance }} is not ready (NATS or PostgreSQL)',
        '{{ $labels.service }} on {{ $labels.instance }} has answered /readyz with 503 for 5 minutes: NATS or PostgreSQL does not answer it. GET /readyz on it says which.',
      ),
    ],
  },
  {
    name: 'openq-messaging',
    rules: [
      alert(
        'OpenqDeadLetters',
        'warning',
        // A counter series is created at its first dead letter: `unless … offset` catches that one.
        'sum by (consumer, reason) (increase(openq_dead_letters_total[15m]) > 0)\nor\n' +
          'sum by (consumer, reason) (openq_dead_letters_total unless openq_dead_letters_total offset 15m)',
        undefined,
        '{{ $labels.consumer }} dead-lettered messages ({{ $labels.reason }})',
        '{{ $labels.consumer }} terminated {{ $value | humanize }} message(s) into its dead_letter table in the last 15 minutes with reason {{ $labels.reason }}. Those events were not applied.',
      ),
      alert(
        'OpenqNotificationsDeadLettered',
        'warning',
        'sum by (channel) (increase(openq_notifications_dead_lettered_total[15m]) > 0)\nor\n' +
          'sum by (channel) (openq_notifications_dead_lettered_total > 0 unless openq_notifications_dead_lettered_total offset 15m)',
        undefined,
        'Notifications by {{ $labels.channel }} were dead-lettered',
        'The notifier gave up on {{ $value | humanize }} {{ $labels.channel }} delivery(ies) in the last 15 minutes (a permanent failure, or every attempt failed). The people concerned were not told.',
      ),
      alert(
        'OpenqConsumerLagGrowing',
        'warning',
        `max by (consumer) (openq_consumer_pending_messages) > ${CONSUMER_LAG_THRESHOLD}\nand\n` +
          'max by (consumer) (delta(openq_consumer_pending_messages[10m])) > 0',
        '10m',
        '{{ $labels.consumer }} is falling behind ({{ $value }} messages waiting)',
        `The durable {{ $labels.consumer }} has had more than ${CONSUMER_LAG_THRESHOLD} undelivered messages, and more every 10 minutes, for 10 minutes: the service does not keep up.`,
      ),
      alert(
        'OpenqConsumerMissing',
        'critical',
        'min by (consumer, stream) (openq_consumer_present) == 0',
        '1m',
        'JetStream consumer {{ $labels.consumer }} is missing',
        'The durable consumer {{ $labels.consumer }} on {{ $labels.stream }} does not exist: its service receives none of those events until the consumer is back.',
      ),
      alert(
        'OpenqStreamMissing',
        'critical',
        'min by (stream) (openq_stream_present) == 0',
        '1m',
        'JetStream stream {{ $labels.stream }} is missing',
        'The stream {{ $labels.stream }} does not exist on the NATS servers: events published to it are lost or refused.',
      ),
      alert(
        'OpenqOutboxBacklogNotDraining',
        'warning',
        'max by (service) (min_over_time(openq_outbox_backlog_rows[10m])) > 0',
        '5m',
        'The {{ $labels.service }} outbox has not been empty for 15 minutes (at least {{ $value }} rows)',
        'The {{ $labels.service }} outbox held unpublished rows at every sample of the last 15 minutes: its relay publishes slower than events are written, or some rows cannot be published.',
      ),
      alert(
        'OpenqOutboxRelayStalled',
        'critical',
        'max by (service) (openq_outbox_backlog_rows) > 0\n' +
          'unless on (service)\nsum by (service) (rate(openq_outbox_published_total[5m])) > 0',
        '5m',
        'The {{ $labels.service }} outbox relay publishes nothing while {{ $value }} rows wait',
        '{{ $labels.service }} has rows in its outbox and none of its processes published one in 5 minutes: its events (decisions, resumes) are not leaving.',
      ),
    ],
  },
  {
    name: 'openq-product',
    rules: [
      alert(
        'OpenqQuestionBlockingGate',
        'warning',
        `max by (service) (openq_gate_parked_oldest_age_seconds{reason="user_decision"}) > ${QUESTION_BLOCKING_POLICY_SECONDS}`,
        '5m',
        'A gate has waited on an unanswered question for {{ $value | humanizeDuration }}',
        `A gate cycle parked on a user decision has not moved for more than ${QUESTION_BLOCKING_POLICY_SECONDS / 3600} hours (the policy): its task is blocked until someone answers.`,
      ),
    ],
  },
];

export function alertRules(groups: RuleGroup[] = RULE_GROUPS): AlertRule[] {
  return groups.flatMap((g) => g.rules.filter((r): r is AlertRule => 'alert' in r));
}
