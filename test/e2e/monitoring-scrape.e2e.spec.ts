import { join } from 'node:path';
import { AgentEvent, eventSubject, OpenqEvent } from '@openq/contracts';
import { startPrometheus, waitFor, type TestPrometheus } from '@openq/testing';
import { RULE_GROUPS, SCRAPE_JOB, alertRules } from '../../tools/monitoring/alerts';
import { dashboardQueries } from '../../tools/monitoring/dashboard';
import { METRIC_LABELS } from '../../tools/monitoring/metrics';
import { EXEC_AUTHOR, ask, gatesOf, publishVerdict, redeliver } from '../support/gates';
import { Stack } from '../support/stack';

/*
 * A real Prometheus (Debian's package; a missing binary fails the test) scrapes a started stack
 * every second with the rules of deploy/prometheus/alerts.yml loaded. Every metric a rule or a
 * panel reads must be there with the labels the rules expect, every panel query must evaluate
 * (non-empty where the stack must have data), every rule expression must be valid PromQL, and
 * the dead letter the test provokes must raise OpenqDeadLetters — so a renamed metric or label
 * breaks the build, not the pager.
 */

const RULES = join(__dirname, '..', '..', 'deploy', 'prometheus', 'alerts.yml');
const P = 'projmon';
const WAIT = { timeoutMs: 45_000, intervalMs: 250 };

let stack: Stack;
let prometheus: TestPrometheus;

interface Series {
  [label: string]: string;
}

function portOf(server: { address(): unknown }): number {
  const address = server.address() as { port: number };
  return address.port;
}

async function openQuestionOf(taskId: string): Promise<string> {
  return waitFor(
    async () => {
      const list = await stack.http('GET', `/projects/${P}/open-questions`, {
        token: stack.token(EXEC_AUTHOR, P, 'viewer'),
      });
      const found = (list.body.items as { questionId: string; afeta: { tarefas: string[] } }[]).find((q) =>
        q.afeta.tarefas.includes(taskId),
      );
      return found?.questionId ?? false;
    },
    { what: `the open question of ${taskId}` },
  );
}

beforeAll(async () => {
  stack = await Stack.start({ services: ['questions', 'gates', 'context', 'notifier'] });
  const ports = [
    ...[...stack.services.values()].map((s) => portOf(s.app.getHttpServer())),
    Number(new URL(stack.baseUrl).port),
  ];
  prometheus = await startPrometheus(
    [
      'global: { scrape_interval: 1s, evaluation_interval: 1s }',
      `rule_files: ['${RULES}']`,
      'scrape_configs:',
      `  - job_name: ${SCRAPE_JOB}`,
      '    static_configs:',
      `      - targets: [${ports.map((p) => `'127.0.0.1:${p}'`).join(', ')}]`,
      '',
    ].join('\n'),
  );

  // A gate parked on a question that gets answered (answer → resume), one left waiting (an old
  // open question, a parked cycle), a redelivery (inbox duplicate), a message that is no envelope (dead letter).
  for (const task of ['T-answered', 'T-waiting']) {
    const started = await stack.publishAgentEvent(AgentEvent.GateStarted, P, {
      taskId: task,
      gate: 'qa',
      sessionId: `exec-${task}`,
      sessionAuthorId: EXEC_AUTHOR,
    });
    if (task === 'T-answered') await redeliver(stack, started);
    await waitFor(async () => (await gatesOf(stack, P, task)).status === 200, { what: `cycle of ${task}` });
    await publishVerdict(stack, P, task, 'r1', [ask('rules', `Which rule for ${task}?`, 'the old one')]);
  }
  const answered = await openQuestionOf('T-answered');
  await openQuestionOf('T-waiting');
  const click = await stack.http('POST', `/projects/${P}/open-questions/${answered}/answer`, {
    token: stack.token(EXEC_AUTHOR, P, 'viewer'),
    body: { aceitarSugestao: true },
  });
  expect(click.status).toBe(200);
  await waitFor(
    () =>
      stack.events
        .ofType<{ taskId: string }>(OpenqEvent.GateResumed)
        .some((e) => e.projectId === P && e.data.taskId === 'T-answered'),
    { what: 'T-answered resumed' },
  );
  await stack.nc
    .jetstream()
    .publish(eventSubject(AgentEvent.GateStarted, P), new TextEncoder().encode('{"not":"an envelope"}'), {
      msgID: 'monitoring-poison',
    });
}, 120_000);

afterAll(async () => {
  await prometheus?.stop();
  await stack?.stop();
});

describe('a real Prometheus scraping a started stack', () => {
  it('scrapes all five services', async () => {
    const up = await waitFor(
      async () => {
        const result = await prometheus.query(`up{job="${SCRAPE_JOB}"} == 1`);
        return result.result.length === 5 ? result.result : false;
      },
      { ...WAIT, what: 'five targets up' },
    );
    expect(up).toHaveLength(5);
  });

  it.each(Object.entries(METRIC_LABELS))(
    '%s is exposed with the labels the rules and panels use',
    async (metric, labels) => {
      const series = await waitFor(
        async () => {
          const found = await prometheus.api<Series[]>('series', { 'match[]': metric });
          return found.length > 0 ? found : false;
        },
        { ...WAIT, what: `series of ${metric}` },
      );
      for (const one of series)
        expect(Object.keys(one).sort()).toEqual(['__name__', 'instance', 'job', ...labels].sort());
    },
  );

  it('has the series the product panels read: an old open question, both park reasons, a resume', async () => {
    const oldest = await prometheus.query('openq_oldest_open_question_age_seconds');
    expect(oldest.result.map((r) => r.metric.project)).toContain(P);
    const parked = await prometheus.query('max by (reason) (openq_gate_cycles_parked)');
    expect(Object.fromEntries(parked.result.map((r) => [r.metric.reason, Number(r.value![1])]))).toEqual({
      idle: 0,
      user_decision: 1,
    });
    const resumes = await prometheus.query('sum(openq_gate_answer_to_resume_seconds_count)');
    expect(Number(resumes.result[0]?.value?.[1])).toBeGreaterThanOrEqual(1);
  });

  it.each(dashboardQueries().map((q) => [`${q.panel}: ${q.expr}`, q] as const))(
    'panel query evaluates — %s',
    async (_label, query) => {
      const result = await waitFor(
        async () => {
          const r = await prometheus.query(query.expr);
          return !query.nonEmptyOnStack || r.result.length > 0 ? r : false;
        },
        { ...WAIT, what: `a result for ${query.expr}` },
      );
      expect(['vector', 'scalar', 'matrix']).toContain(result.resultType);
    },
  );

  it.each(
    RULE_GROUPS.flatMap((g) => g.rules.map((r) => ['alert' in r ? r.alert : r.record, r.expr] as const)),
  )('rule expression is valid PromQL on the live data — %s', async (_name, expr) => {
    await expect(prometheus.query(expr)).resolves.toMatchObject({ resultType: 'vector' });
  });

  it('loaded every rule group, and raises OpenqDeadLetters for the message that is no envelope', async () => {
    const groups = await prometheus.api<{ groups: { name: string; rules: { name: string }[] }[] }>('rules');
    expect(groups.groups.map((g) => g.name).sort()).toEqual(RULE_GROUPS.map((g) => g.name).sort());
    expect(groups.groups.flatMap((g) => g.rules.map((r) => r.name))).toEqual(
      expect.arrayContaining(alertRules().map((r) => r.alert)),
    );
    const firing = await waitFor(
      async () => {
        const { alerts } = await prometheus.api<{
          alerts: { labels: Record<string, string>; state: string }[];
        }>('alerts');
        return alerts.find((a) => a.labels.alertname === 'OpenqDeadLetters' && a.state === 'firing') ?? false;
      },
      { ...WAIT, what: 'OpenqDeadLetters firing' },
    );
    expect(firing.labels).toMatchObject({
      consumer: 'gates__agent_gate_started',
      reason: 'envelope_invalido',
      severity: 'warning',
    });
  });
});
