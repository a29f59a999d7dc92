import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { M, PER, S } from './metrics';
import { QUICK } from './plan';
import { writeResults } from './support/report';
import { Collector, type BenchResults } from './support/results';
import { judgeTargets } from './targets';
import { abTable } from './ab';

// The bench is a command (`npm run bench`, `npm run bench -- --quick`), never a test: what stays in
// the suite is this check of its own code — targets judged on the figures, the table and chart
// written — on a tiny synthetic plan, in milliseconds. No figure here was measured.

const plan = QUICK;

/** Three runs of each figure a target reads, around the given median. */
function collector(values: Record<string, [string, string, string, number]>): Collector {
  const c = new Collector();
  for (const [scenario, metric, unit, median] of Object.values(values))
    for (const v of [median * 0.9, median, median * 1.1]) c.add(scenario, metric, unit, v);
  return c;
}

const passing = {
  peer: [S.peer, M.ratioResumes, '×', 1.8],
  peak: [S.peak, M.ratioPeak, '×', 3.5],
  solo: [S.peer, M.ratioSolo, '×', 1.2],
  ingest: [S.ingest, M.ingestBatchedRatio, '×', 0.3],
  statements: [S.resume, M.sql(PER.cycle), 'statements', 12],
  cpu: [S.resume, M.cpuTotal(PER.cycle), 'ms', 5],
  pgStatement: [S.resume, M.pgPerStatementRatio, '×', 1.5],
  burstFailed: [S.burst, M.burstFailed(plan.burstDeclarations), 'requests', 0],
  burstAnswered: [S.burst, M.burstAllAnswered(plan.burstDeclarations), 'ms', 1500],
  burstDeployedFailed: [S.burstDeployed, M.burstFailed(plan.burstDeclarations), 'requests', 0],
  burstDeployedAnswered: [S.burstDeployed, M.burstAllAnswered(plan.burstDeclarations), 'ms', 1800],
  resumeP99: [S.resume, M.resumeP99(plan), 'ms', 20],
  health: [S.shed, M.healthP99(2560, 'probe port'), 'ms', 30],
  readP99: [S.reads, M.readP99(plan.readsLarge), 'ms', 8],
  readScale: [S.reads, M.readRatio(plan), '×', 1.2],
  resumeP50: [S.resume, M.resumeRatio, '×', 2],
  questions: [S.parked, M.rssDelta('questions'), 'MiB', 4],
  gates: [S.parked, M.rssDelta('gates'), 'MiB', 4],
  context: [S.parked, M.rssDelta('context'), 'MiB', 4],
  gateway: [S.parked, M.rssDelta('gateway'), 'MiB', 4],
} satisfies Record<string, [string, string, string, number]>;

describe('bench: targets judged on the medians', () => {
  it('meets every target when every median is inside its limit', () => {
    const targets = judgeTargets(collector(passing), plan);
    expect(targets.map((t) => t.id)).toEqual([
      'resumes-vs-peer',
      'peak-vs-peer',
      'solo-vs-peer',
      'ingest-batched',
      'cycle-statements',
      'cycle-cpu',
      'pg-per-statement',
      'burst-failed',
      'burst-answered',
      'burst-failed-deployed',
      'burst-answered-deployed',
      'resume-p99',
      'health-p99',
      'read-p99',
      'read-scale',
      'resume-p50',
      'parked-questions',
      'parked-gates',
      'parked-context',
      'parked-gateway',
    ]);
    expect(targets.filter((t) => !t.met)).toEqual([]);
    expect(targets.find((t) => t.id === 'cycle-statements')?.value).toBe(12);
    expect(targets.find((t) => t.id === 'health-p99')?.description).toBe(M.healthP99(2560, 'probe port'));
  });

  it("judges issue #27's liveness limit on the larger burst: 100 ms", () => {
    const judged = (ms: number) => {
      const c = collector({ ...passing, health: [S.shed, M.healthP99(2560, 'probe port'), 'ms', ms] });
      c.add(S.shed, M.healthP99(256, 'probe port'), 'ms', 500); // the smaller burst is not judged
      for (const v of [ms * 0.9, ms, ms * 1.1]) c.add(S.shed, M.healthP99(2560, 'probe port'), 'ms', v);
      return judgeTargets(c, plan).find((t) => t.id === 'health-p99')?.met;
    };
    expect(judged(100)).toBe(true);
    expect(judged(140)).toBe(false);
  });

  it('judges the burst as deployed on its own: 504s there miss even when the one process answered all', () => {
    const missed = judgeTargets(
      collector({
        ...passing,
        burstDeployedFailed: [S.burstDeployed, M.burstFailed(plan.burstDeclarations), 'requests', 998],
        burstDeployedAnswered: [S.burstDeployed, M.burstAllAnswered(plan.burstDeclarations), 'ms', 7014],
      }),
      plan,
    ).filter((t) => !t.met);
    expect(missed.map((t) => t.id)).toEqual(['burst-failed-deployed', 'burst-answered-deployed']);
    expect(missed[0]?.description).toMatch(/, as deployed$/);
  });

  it('misses a target whose median is outside its limit, and only that one', () => {
    const targets = judgeTargets(collector({ ...passing, peer: [S.peer, M.ratioResumes, '×', 0.78] }), plan);
    expect(targets.filter((t) => !t.met).map((t) => [t.id, t.value])).toEqual([['resumes-vs-peer', 0.78]]);
  });

  it("judges issue #29's limits: 1.5 × at 16 in flight, 3 × at the peak, 6 ms, 2 × per statement", () => {
    const judged = (over: Partial<typeof passing>) =>
      judgeTargets(collector({ ...passing, ...over }), plan)
        .filter((t) => !t.met)
        .map((t) => t.id);
    expect(judged({ peer: [S.peer, M.ratioResumes, '×', 1.5] })).toEqual([]);
    expect(judged({ peer: [S.peer, M.ratioResumes, '×', 1.4] })).toEqual(['resumes-vs-peer']);
    expect(judged({ peak: [S.peak, M.ratioPeak, '×', 2.9] })).toEqual(['peak-vs-peer']);
    expect(judged({ solo: [S.peer, M.ratioSolo, '×', 1.6] })).toEqual(['solo-vs-peer']);
    expect(judged({ cpu: [S.resume, M.cpuTotal(PER.cycle), 'ms', 6] })).toEqual([]);
    expect(judged({ cpu: [S.resume, M.cpuTotal(PER.cycle), 'ms', 6.5] })).toEqual(['cycle-cpu']);
    expect(judged({ pgStatement: [S.resume, M.pgPerStatementRatio, '×', 2.2] })).toEqual([
      'pg-per-statement',
    ]);
    expect(judged({ ingest: [S.ingest, M.ingestBatchedRatio, '×', 0.2] })).toEqual(['ingest-batched']);
  });

  it('says "not measured" (NaN, missed) for a target whose figure is missing', () => {
    const { cpu: _cpu, ...rest } = passing;
    const target = judgeTargets(collector(rest), plan).find((t) => t.id === 'cycle-cpu');
    expect(target?.met).toBe(false);
    expect(Number.isNaN(target?.value)).toBe(true);
  });
});

describe('bench: results written as JSON, a markdown table and a chart', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'openq-bench-spec-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const resultsOf = (c: Collector, errors: BenchResults['errors'] = {}): BenchResults => ({
    meta: { date: '2026-12-02', mode: 'quick', runs: 3, machine: 'test', commit: 'abc' },
    figures: c.rows(),
    targets: judgeTargets(c, plan),
    details: {},
    errors,
  });

  it('writes every figure and every target, with failures listed', () => {
    const c = collector(passing);
    c.add(S.resume, M.resumeSoloP50, 'ms', 4);
    c.add(S.resume, M.resumeSoloP50, 'ms', 5);
    c.add(S.resume, M.resumeSoloP50, 'ms', 9);
    const results = resultsOf(c, { [S.shed]: 'boom' });
    const paths = writeResults(dir, 'stamp', results);
    expect(JSON.parse(readFileSync(paths.json, 'utf8'))).toEqual(results);
    const md = readFileSync(paths.md, 'utf8');
    expect(md).toContain('| scenario | metric | median | spread (min – max) | IQR (q1 – q3) | unit | runs |');
    expect(md).toContain(`| ${S.resume} | ${M.resumeSoloP50} | **5** | 4 – 9 |`);
    for (const t of results.targets) expect(md).toContain(`| ${t.description} |`);
    expect(md).toContain(`- **${S.shed}**: boom`);
    const svg = readFileSync(paths.svg, 'utf8');
    expect(svg).toMatch(/^<svg [^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(svg).toContain(`${S.resume} · ${M.resumeSoloP50}`);
  });

  it('draws the chart when a latency measured 0 in one of its runs', () => {
    const c = collector(passing);
    for (const v of [0, 0.4, 2]) c.add(S.resume, M.resumeSoloP50, 'ms', v);
    const svg = readFileSync(writeResults(dir, 'zero', resultsOf(c)).svg, 'utf8');
    expect(svg).toContain(`${S.resume} · ${M.resumeSoloP50}`);
    expect(svg).not.toMatch(/NaN|Infinity/);
  });
});

describe('bench:ab: each figure of both sides, run by run', () => {
  const results = (peak: number, statements: number, solo?: number): BenchResults => {
    const c = new Collector();
    c.add(S.peak, M.peakBest, 'resumes/s', peak);
    c.add(S.peak, M.ratioPeak, '×', peak / 300);
    c.add(S.resume, M.sql(PER.cycle), 'statements', statements);
    if (solo !== undefined) c.add(S.resume, M.resumeSoloP50, 'ms', solo);
    return { meta: {}, figures: c.rows(), targets: judgeTargets(c, plan), details: {}, errors: {} };
  };

  it('prints the targets measured and the chosen figures, base then change, each in its runs’ order', () => {
    const table = abTable(
      [results(540, 21.6), results(551, 21.7, 8)],
      [results(612, 20.9), results(600, 21)],
    );
    const lines = table.split('\n');
    expect(lines[0]).toBe('| figure | base | change |');
    expect(lines).toContain(`| ${S.peak}: ${M.peakBest} | 540, 551 | 612, 600 |`);
    expect(table).toMatch(/\| SQL statements per .* cycle \(statements\) \| 21\.6, 21\.7 \| 20\.9, 21\.0 \|/);
    // measured in one run only: the others say so
    expect(lines).toContain(`| ${S.resume}: ${M.resumeSoloP50} | –, 8.00 | –, – |`);
    expect(table).toMatch(/\| peak resumes\/s .* \(×\) \| 1\.80, 1\.84 \| 2\.04, 2\.00 \|/);
    // a figure no run measured is left out
    expect(table).not.toContain(M.peerSoloP50);
    // and so is a target whose figure no run measured (the burst's)
    expect(table).not.toContain('2,000');
  });
});
