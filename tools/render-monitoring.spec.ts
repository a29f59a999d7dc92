import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv from 'ajv';
import { parse } from 'yaml';
import { ConfigMap } from 'kubernetes-models/v1/ConfigMap';
import { RULE_GROUPS } from './monitoring/alerts';
import { DASHBOARD_SCHEMA } from './monitoring/dashboard-schema';
import { dashboardQueries, renderDashboard } from './monitoring/dashboard';
import { METRIC_LABELS, metricNamesIn, referencedMetrics } from './monitoring/metrics';
import { renderMonitoringFiles } from './render-monitoring';

const ROOT = join(__dirname, '..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

describe('render-monitoring', () => {
  it.each(Object.entries(renderMonitoringFiles()))(
    '%s is exactly what the generator writes (regenerate: npm run build && node dist/tools/render-monitoring.js)',
    (path, content) => {
      expect(read(path)).toBe(content);
    },
  );

  it('ships the same rule groups to Kubernetes (PrometheusRule) as to promtool and compose (alerts.yml)', () => {
    const rulesFile = parse(read('deploy/prometheus/alerts.yml')) as { groups: unknown };
    const prometheusRule = parse(read('deploy/k8s/monitoring/prometheus-rule.yaml')) as {
      apiVersion: string;
      kind: string;
      spec: { groups: unknown };
    };
    expect(prometheusRule.apiVersion).toBe('monitoring.coreos.com/v1');
    expect(prometheusRule.kind).toBe('PrometheusRule');
    expect(prometheusRule.spec.groups).toEqual(rulesFile.groups);
    expect(rulesFile.groups).toEqual(JSON.parse(JSON.stringify(RULE_GROUPS)));
  });

  it('ships the dashboard as a valid ConfigMap for Grafana’s sidecar, equal to the compose one', () => {
    const configMap = parse(read('deploy/k8s/monitoring/grafana-dashboard.yaml')) as ConstructorParameters<
      typeof ConfigMap
    >[0] & { data: Record<string, string> };
    expect(() => new ConfigMap(configMap).validate()).not.toThrow();
    expect(configMap.metadata?.labels?.grafana_dashboard).toBe('1');
    expect(JSON.parse(configMap.data['openq.json']!)).toEqual(
      JSON.parse(read('deploy/grafana/dashboards/openq.json')),
    );
  });
});

describe('the Grafana dashboard', () => {
  const validate = new Ajv({ allErrors: true, strict: true }).compile(DASHBOARD_SCHEMA);
  const dashboard = renderDashboard();

  it('matches the JSON schema of the dashboard model subset it uses', () => {
    expect(validate(JSON.parse(read('deploy/grafana/dashboards/openq.json')))).toBe(true);
    expect(validate.errors ?? []).toEqual([]);
  });

  it('is refused by the schema when broken (the validator is really on)', () => {
    const broken = structuredClone(dashboard) as { panels: { gridPos: { w: number } }[] };
    broken.panels[1]!.gridPos.w = 30;
    expect(validate(broken)).toBe(false);
    const noTarget = structuredClone(dashboard) as { panels: Record<string, unknown>[] };
    noTarget.panels[1]!.targets = [];
    expect(validate(noTarget)).toBe(false);
  });

  it('has unique panel ids, and panels that do not overlap on the grid', () => {
    const panels = dashboard.panels as {
      id: number;
      gridPos: { h: number; w: number; x: number; y: number };
    }[];
    expect(new Set(panels.map((p) => p.id)).size).toBe(panels.length);
    const cells = new Set<string>();
    for (const { gridPos: g } of panels)
      for (let x = g.x; x < g.x + g.w; x++)
        for (let y = g.y; y < g.y + g.h; y++) {
          expect(x).toBeLessThan(24);
          expect(cells.has(`${x},${y}`)).toBe(false);
          cells.add(`${x},${y}`);
        }
  });

  it('shows the golden signals, answer → resume, lag, outbox, dead letters, open questions and parked cycles', () => {
    const exprs = dashboardQueries().map((q) => q.expr);
    for (const metric of [
      'openq:requests:rate5m',
      'openq:request_error_ratio:rate5m',
      'openq_request_duration_seconds_bucket',
      'openq_gate_answer_to_resume_seconds_bucket',
      'openq_consumer_pending_messages',
      'openq_outbox_backlog_rows',
      'openq_dead_letters_total',
      'openq_open_questions',
      'openq_gate_cycles_parked',
      'openq_oldest_open_question_age_seconds',
    ])
      expect(exprs.some((e) => e.includes(metric))).toBe(true);
  });
});

describe('the metric catalogue the scrape test checks', () => {
  it('lists exactly the metrics the rules and the panels read', () => {
    expect(referencedMetrics()).toEqual(Object.keys(METRIC_LABELS).sort());
  });

  it('finds metric names, not labels, functions or recording rules', () => {
    expect(
      metricNamesIn(
        'sum by (service) (rate(openq_request_duration_seconds_count{status=~"5.."}[5m])) / openq:requests:rate5m or up{job="openq"}',
      ),
    ).toEqual(['openq_request_duration_seconds_count', 'up']);
  });
});
