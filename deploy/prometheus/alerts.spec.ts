import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { runPromtool } from '@openq/testing';
import { alertRules, RUNBOOK_BASE_URL } from '../../tools/monitoring/alerts';

/*
 * The alert rules under promtool (Debian's `prometheus` package; .ci/run installs it): the file
 * is valid, and alerts.test.yml's series make every alert fire where it must and stay silent
 * where it must not. promtool missing is a failure, not a skip.
 */

const DIR = __dirname;
const OPERATIONS = readFileSync(join(DIR, '..', '..', 'docs', 'operations.md'), 'utf8');

interface PromtoolTest {
  alert_rule_test?: { eval_time: string; alertname: string; exp_alerts?: unknown[] }[];
}
const tests = (parse(readFileSync(join(DIR, 'alerts.test.yml'), 'utf8')) as { tests: PromtoolTest[] }).tests;
const cases = tests.flatMap((t) => t.alert_rule_test ?? []);

/** GitHub's heading anchors: lower case, punctuation dropped, spaces as hyphens. */
function anchors(markdown: string): Set<string> {
  return new Set(
    [...markdown.matchAll(/^#{1,6} (.+)$/gm)].map((m) =>
      m[1]!
        .trim()
        .toLowerCase()
        .replace(/[^\p{L}\p{N} _-]/gu, '')
        .replace(/ /g, '-'),
    ),
  );
}

describe('deploy/prometheus/alerts.yml', () => {
  it('is a valid rules file (promtool check rules)', () => {
    const { status, output } = runPromtool(['check', 'rules', 'alerts.yml'], DIR);
    expect({ status, output }).toEqual({ status: 0, output: expect.stringContaining('SUCCESS') });
  });

  it('passes its unit tests (promtool test rules alerts.test.yml)', () => {
    const { status, output } = runPromtool(['test', 'rules', 'alerts.test.yml'], DIR);
    expect({ status, output }).toEqual({ status: 0, output: expect.stringContaining('SUCCESS') });
  });

  it('fails on a wrong expectation (the rule tests really compare)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'openq-promtool-'));
    try {
      copyFileSync(join(DIR, 'alerts.yml'), join(dir, 'alerts.yml'));
      const original = readFileSync(join(DIR, 'alerts.test.yml'), 'utf8');
      const broken = original.replace(
        "{ severity: critical, job: openq, instance: 'questions:3101' }",
        "{ severity: warning, job: openq, instance: 'questions:3101' }",
      );
      expect(broken).not.toBe(original);
      writeFileSync(join(dir, 'alerts.test.yml'), broken);
      const { status, output } = runPromtool(['test', 'rules', 'alerts.test.yml'], dir);
      expect(status).not.toBe(0);
      expect(output).toContain('alertname: OpenqTargetDown');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.each(alertRules().map((r) => [r.alert, r] as const))(
    '%s: a severity, a summary, a description and a runbook section in docs/operations.md',
    (name, rule) => {
      expect(['critical', 'warning']).toContain(rule.labels.severity);
      expect(rule.annotations.summary.length).toBeGreaterThan(10);
      expect(rule.annotations.description.length).toBeGreaterThan(rule.annotations.summary.length);
      expect(rule.annotations.runbook_url).toBe(`${RUNBOOK_BASE_URL}#${name.toLowerCase()}`);
      expect(anchors(OPERATIONS)).toContain(name.toLowerCase());
    },
  );

  it.each(alertRules().map((r) => [r.alert] as const))(
    '%s: has series that make it fire and series where it must not',
    (name) => {
      const mine = cases.filter((c) => c.alertname === name);
      expect(mine.some((c) => (c.exp_alerts ?? []).length > 0)).toBe(true);
      expect(mine.some((c) => (c.exp_alerts ?? []).length === 0)).toBe(true);
    },
  );
});
