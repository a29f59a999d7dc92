import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runBench, type BenchOutcome } from './bench';
import { S } from './metrics';
import { REPO_ROOT } from './support/processes';

// The quick bench, in-process, so the benchmarks never rot. No timing is asserted: only that
// every scenario ran and produced figures (median and spread over 3 runs) and a results table.
// Its results go to test/artifacts/bench/, never to test/bench/results/.
describe('bench --quick', () => {
  let outcome: BenchOutcome;

  // Standalone the quick bench takes ~3.5 min; inside a long jest run on a busy 2-core machine it
  // once passed 15 min, so the bound is 30 min (CI stays well under its 90).
  beforeAll(async () => {
    outcome = await runBench({ quick: true, quiet: true });
  }, 1_800_000);

  it('runs every scenario without a failure', () => {
    expect(outcome.results.errors).toEqual({});
  });

  it.each(Object.values(S))(
    'gives figures for %s, each a median and a spread over at least 3 runs',
    (scenario) => {
      const rows = outcome.results.figures.filter((r) => r.scenario === scenario);
      expect(rows.length).toBeGreaterThan(0);
      for (const { metric, figure } of rows) {
        expect({
          metric,
          finite: [figure.median, figure.min, figure.max, figure.q1, figure.q3].every(Number.isFinite),
        }).toEqual({ metric, finite: true });
        expect(figure.min).toBeLessThanOrEqual(figure.median);
        expect(figure.median).toBeLessThanOrEqual(figure.max);
        // sizes on disk are read once (they are not noisy); everything else is measured 3 times
        if (figure.unit !== 'bytes' && !metric.includes('pg_total_relation_size'))
          expect({ metric, runs: figure.runs.length >= 3 }).toEqual({ metric, runs: true });
      }
    },
  );

  it('judges every target on a number', () => {
    expect(outcome.results.targets.length).toBeGreaterThanOrEqual(9);
    // issue #14's targets, each by its own figure
    expect(outcome.results.targets.map((t) => t.id)).toEqual(
      expect.arrayContaining([
        'resumes-vs-peer',
        'solo-vs-peer',
        'ingest-batched',
        'cycle-statements',
        'cycle-cpu',
        'burst-failed',
        'burst-answered',
        'resume-p99',
        'read-p99',
      ]),
    );
    for (const t of outcome.results.targets)
      expect({ id: t.id, finite: Number.isFinite(t.value) }).toEqual({ id: t.id, finite: true });
  });

  it('writes the JSON, the markdown table and the chart under test/artifacts/bench/', () => {
    const dir = join(REPO_ROOT, 'test', 'artifacts', 'bench');
    for (const path of Object.values(outcome.paths)) {
      expect(path.startsWith(dir)).toBe(true);
      expect(existsSync(path)).toBe(true);
    }
    const json = JSON.parse(readFileSync(outcome.paths.json, 'utf8'));
    expect(json.meta.mode).toBe('quick');
    const md = readFileSync(outcome.paths.md, 'utf8');
    expect(md).toContain('| scenario | metric | median | spread (min – max) | IQR (q1 – q3) | unit | runs |');
    for (const scenario of Object.values(S)) expect(md).toContain(`| ${scenario} |`);
    expect(readFileSync(outcome.paths.svg, 'utf8')).toMatch(
      /^<svg [^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/,
    );
  });
});
