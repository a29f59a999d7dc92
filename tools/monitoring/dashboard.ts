import { LATENCY_SLO_SECONDS } from './alerts';

/*
 * The Grafana dashboard "openq", as code: rows of panels, each with its PromQL. The JSON is
 * rendered by `tools/render-monitoring.ts` into deploy/grafana/dashboards/openq.json (provisioned
 * by compose) and a ConfigMap for Kubernetes (Grafana's dashboard sidecar). A unit test checks
 * it against a JSON schema of the subset used; the scrape test runs every query on a real
 * Prometheus scraping a started stack.
 */

export interface PanelQuery {
  expr: string;
  legend: string;
  /** The started stack must give this query a non-empty result (false: e.g. dead letters, a quiet stack). */
  nonEmptyOnStack: boolean;
}

export interface PanelSpec {
  title: string;
  description: string;
  kind: 'timeseries' | 'stat' | 'table';
  unit: string;
  queries: PanelQuery[];
  /** Grid width (of 24); default 8. */
  width?: number;
}

export interface RowSpec {
  title: string;
  panels: PanelSpec[];
}

export const DASHBOARD_UID = 'openq-overview';
const DATASOURCE = { type: 'prometheus', uid: '${datasource}' } as const;
const PANEL_HEIGHT = 8;
const HEALTH_ROUTES = 'route!~"/healthz|/readyz|/metrics"';

const q = (expr: string, legend: string, nonEmptyOnStack = true): PanelQuery => ({
  expr,
  legend,
  nonEmptyOnStack,
});

export const ROWS: RowSpec[] = [
  {
    title: 'Golden signals per service',
    panels: [
      {
        title: 'Traffic',
        description:
          'Requests per second: request/reply answered by the domain services, the HTTP API for the gateway (health and metrics routes left out).',
        kind: 'timeseries',
        unit: 'reqps',
        queries: [q('openq:requests:rate5m', '{{service}}')],
      },
      {
        title: 'Errors (5xx ratio)',
        description: 'Share of requests answered with a server error; the availability SLO allows 0.1 %.',
        kind: 'timeseries',
        unit: 'percentunit',
        queries: [q('openq:request_error_ratio:rate5m', '{{service}}')],
      },
      {
        title: 'Latency p50 / p99',
        description: `Request latency; the latency SLO: 99 % within ${LATENCY_SLO_SECONDS} s.`,
        kind: 'timeseries',
        unit: 's',
        queries: [
          q(
            'histogram_quantile(0.99, sum by (service, le) (rate(openq_request_duration_seconds_bucket[5m])))',
            '{{service}} p99',
          ),
          q(
            'histogram_quantile(0.5, sum by (service, le) (rate(openq_request_duration_seconds_bucket[5m])))',
            '{{service}} p50',
          ),
          q(
            `histogram_quantile(0.99, sum by (service, le) (rate(http_request_duration_seconds_bucket{service="gateway",${HEALTH_ROUTES}}[5m])))`,
            'gateway HTTP p99',
          ),
        ],
      },
      {
        title: 'Ready',
        description: '1 when the process would answer /readyz with 200 (NATS and PostgreSQL answer).',
        kind: 'stat',
        unit: 'none',
        queries: [q('min by (service) (openq_service_ready)', '{{service}}')],
      },
      {
        title: 'Event-loop lag p99',
        description:
          'Saturation of a Node.js process: how late its timers fire. Above ~100 ms, everything it does waits.',
        kind: 'timeseries',
        unit: 's',
        queries: [q('nodejs_eventloop_lag_p99_seconds', '{{instance}}')],
      },
      {
        title: 'CPU and memory',
        description: 'CPU seconds per second and resident memory per process.',
        kind: 'timeseries',
        unit: 'short',
        queries: [
          q('rate(process_cpu_seconds_total[5m])', '{{instance}} CPU'),
          q('process_resident_memory_bytes / 2^30', '{{instance}} RSS GiB'),
        ],
      },
    ],
  },
  {
    title: 'Answer → resume',
    panels: [
      {
        title: 'Answer → resume latency',
        description:
          'From a question being answered to the gate cycle parked on it resuming (question outbox, JetStream, gates consumer).',
        kind: 'timeseries',
        unit: 's',
        width: 12,
        queries: [
          q(
            'histogram_quantile(0.5, sum by (le) (rate(openq_gate_answer_to_resume_seconds_bucket[5m])))',
            'p50',
          ),
          q(
            'histogram_quantile(0.99, sum by (le) (rate(openq_gate_answer_to_resume_seconds_bucket[5m])))',
            'p99',
          ),
        ],
      },
      {
        title: 'Event handling p99 by consumer',
        description: 'One inbound message: parse, transaction, outbox.',
        kind: 'timeseries',
        unit: 's',
        width: 12,
        queries: [
          q(
            'histogram_quantile(0.99, sum by (consumer, le) (rate(openq_event_handling_duration_seconds_bucket[5m])))',
            '{{consumer}}',
          ),
        ],
      },
    ],
  },
  {
    title: 'Messaging',
    panels: [
      {
        title: 'Consumer lag per durable',
        description: 'Stream messages not yet delivered to each durable consumer (num_pending).',
        kind: 'timeseries',
        unit: 'short',
        queries: [q('max by (consumer) (openq_consumer_pending_messages)', '{{consumer}}')],
      },
      {
        title: 'Unacked per durable',
        description: 'Delivered, not yet acknowledged (num_ack_pending); near 256 the consumer is saturated.',
        kind: 'timeseries',
        unit: 'short',
        queries: [q('max by (consumer) (openq_consumer_ack_pending_messages)', '{{consumer}}')],
      },
      {
        title: 'Outbox backlog and relay',
        description: 'Outbox rows not yet published, and rows published per second by the relays.',
        kind: 'timeseries',
        unit: 'short',
        queries: [
          q('max by (service) (openq_outbox_backlog_rows)', '{{service}} backlog'),
          q('sum by (service) (rate(openq_outbox_published_total[5m]))', '{{service}} published/s'),
        ],
      },
      {
        title: 'Dead letters by reason',
        description: 'Messages terminated into dead_letter in the last hour, by consumer and reason.',
        kind: 'timeseries',
        unit: 'short',
        queries: [
          q('sum by (consumer, reason) (increase(openq_dead_letters_total[1h]))', '{{consumer}} {{reason}}'),
        ],
      },
      {
        title: 'JetStream streams and consumers present',
        description:
          '1 when the stream or durable consumer exists; 0 pages (OpenqStreamMissing, OpenqConsumerMissing).',
        kind: 'stat',
        unit: 'none',
        queries: [
          q('min by (stream) (openq_stream_present)', '{{stream}}'),
          q('min(openq_consumer_present)', 'all consumers'),
        ],
      },
      {
        title: 'Inbox duplicates',
        description: 'Redeliveries absorbed by the inbox (normal after restarts and failovers).',
        kind: 'timeseries',
        unit: 'short',
        queries: [q('sum by (consumer) (rate(openq_inbox_duplicates_total[5m]))', '{{consumer}}', false)],
      },
    ],
  },
  {
    title: 'Questions and gates',
    panels: [
      {
        title: 'Open questions',
        description: 'Open questions across all projects.',
        kind: 'stat',
        unit: 'short',
        queries: [q('max(openq_open_questions)', 'open')],
      },
      {
        title: 'Parked cycles by reason',
        description: 'Gate cycles parked idle or on a user decision.',
        kind: 'timeseries',
        unit: 'short',
        queries: [q('max by (reason) (openq_gate_cycles_parked)', '{{reason}}')],
      },
      {
        title: 'Longest-waiting parked cycle',
        description:
          'Time the longest-waiting parked cycle has gone without a change, by reason; user_decision above the policy pages OpenqQuestionBlockingGate.',
        kind: 'timeseries',
        unit: 's',
        queries: [q('max by (reason) (openq_gate_parked_oldest_age_seconds)', '{{reason}}')],
      },
      {
        title: 'Oldest open question per project',
        description: 'The projects whose oldest open question waits longest (at most 20 are reported).',
        kind: 'table',
        unit: 's',
        width: 24,
        queries: [q('topk(10, max by (project) (openq_oldest_open_question_age_seconds))', '{{project}}')],
      },
    ],
  },
  {
    // Issue #33 (SPEC §12.4): every replica of the context service reads the same read model, so
    // `max by (role)` is the figure, not a sum over replicas.
    title: 'Question quality (last 7 days, per asking role)',
    panels: [
      {
        title: 'Questions asked per role',
        description: 'Questions declared in the last 7 days, all projects, per asking role (autor).',
        kind: 'timeseries',
        unit: 'short',
        queries: [q('max by (role) (openq_question_quality_7d{figure="asked"})', '{{role}}')],
      },
      {
        title: 'Suggestion accepted per role',
        description:
          'Of the answers in the last 7 days (by click or by agent), the share that took the asking agent’s suggestion.',
        kind: 'timeseries',
        unit: 'percentunit',
        queries: [
          q(
            'max by (role) (openq_question_quality_7d{figure="suggestion_accepted"}) / clamp_min(max by (role) (openq_question_quality_7d{figure="answered_by_click"}) + max by (role) (openq_question_quality_7d{figure="answered_by_agent"}), 1)',
            '{{role}}',
          ),
        ],
      },
      {
        title: 'Answer time p90 per role',
        description:
          'Minutes from a question to its answer, 9 in 10 within, over the last 7 days; and the median time a gate stayed parked on a role’s question.',
        kind: 'timeseries',
        unit: 'm',
        queries: [
          q(
            'max by (role) (openq_question_quality_minutes_7d{figure="answer_p90"})',
            'answer p90 {{role}}',
            false,
          ),
          q(
            'max by (role) (openq_question_quality_minutes_7d{figure="parked_p50"})',
            'parked p50 {{role}}',
            false,
          ),
        ],
      },
    ],
  },
];

/** Every query of the dashboard, with its panel's title. */
export function dashboardQueries(rows: RowSpec[] = ROWS): (PanelQuery & { panel: string })[] {
  return rows.flatMap((r) =>
    r.panels.flatMap((p) => p.queries.map((query) => ({ ...query, panel: p.title }))),
  );
}

/** The dashboard as Grafana's JSON model (schemaVersion 39). */
export function renderDashboard(rows: RowSpec[] = ROWS): Record<string, unknown> {
  let id = 0;
  let y = 0;
  const panels: Record<string, unknown>[] = [];
  for (const row of rows) {
    panels.push({
      id: ++id,
      type: 'row',
      title: row.title,
      collapsed: false,
      gridPos: { h: 1, w: 24, x: 0, y },
      panels: [],
    });
    y += 1;
    let x = 0;
    for (const panel of row.panels) {
      const w = panel.width ?? 8;
      if (x + w > 24) {
        x = 0;
        y += PANEL_HEIGHT;
      }
      panels.push({
        id: ++id,
        type: panel.kind,
        title: panel.title,
        description: panel.description,
        datasource: DATASOURCE,
        gridPos: { h: PANEL_HEIGHT, w, x, y },
        fieldConfig: { defaults: { unit: panel.unit }, overrides: [] },
        options:
          panel.kind === 'timeseries'
            ? {
                legend: { displayMode: 'list', placement: 'bottom', showLegend: true },
                tooltip: { mode: 'multi' },
              }
            : panel.kind === 'stat'
              ? { reduceOptions: { calcs: ['lastNotNull'], fields: '', values: false }, colorMode: 'value' }
              : { showHeader: true },
        targets: panel.queries.map((query, i) => ({
          refId: String.fromCharCode(65 + i),
          datasource: DATASOURCE,
          expr: query.expr,
          legendFormat: query.legend,
          ...(panel.kind === 'table' ? { instant: true, format: 'table' } : { range: true }),
        })),
      });
      x += w;
    }
    y += PANEL_HEIGHT;
  }
  return {
    uid: DASHBOARD_UID,
    title: 'openq',
    description:
      'Golden signals per service, answer → resume latency, consumer lag, outbox, dead letters, open questions and parked cycles. Generated by tools/render-monitoring.ts; do not edit.',
    tags: ['openq'],
    editable: false,
    schemaVersion: 39,
    version: 1,
    refresh: '30s',
    time: { from: 'now-6h', to: 'now' },
    timezone: 'browser',
    templating: {
      list: [
        {
          name: 'datasource',
          label: 'Prometheus',
          type: 'datasource',
          query: 'prometheus',
          current: {},
          hide: 0,
        },
      ],
    },
    annotations: { list: [] },
    panels,
  };
}
