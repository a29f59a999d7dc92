import '../../tools/register-paths';
import { spawnSync } from 'node:child_process';
import { closeSync, cpSync, mkdirSync, openSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { M, PER, S } from './metrics';
import { REPO_ROOT } from './support/processes';
import type { BenchResults } from './support/results';

/**
 * A/B of this working tree's build against an earlier commit (issue #29's method,
 * docs/performance.md): both built side by side, the quick bench run on each in turn, the order
 * swapped every pair so that neither side always meets the machine first, then each figure of
 * both sides printed run by run. These machines are noisy: a change counts when it moves a figure
 * the same way in every pair, not when one median differs.
 *   npm run bench:ab -- <commit> [--pairs N] [--only resume,peer,peak] [--out DIR]
 */
const USAGE =
  'usage: npm run bench:ab -- <base commit> [--pairs N (3)] [--only scenarios (resume,peer,peak)] [--out DIR]';

/**
 * The figures an A/B prints besides the targets measured (CPU and statements per cycle in
 * scenario 3 are targets): [scenario, metric].
 */
export const AB_FIGURES: readonly (readonly [string, string])[] = [
  [S.resume, M.cpu('node', PER.cycle)],
  [S.resume, M.cpu('postgres', PER.cycle)],
  [S.resume, M.transactions(PER.cycle)],
  [S.resume, M.resumeResumes],
  [S.resume, M.resumeSoloP50],
  [S.peer, M.peerResumes],
  [S.peer, M.peerSoloP50],
  [S.peak, M.peakBest],
  [S.peak, M.peerPeakBest],
  [S.peak, M.sql(PER.cycle)],
  [S.peak, M.cpuTotal(PER.cycle)],
];

const fmt = (v: number) =>
  Math.abs(v) >= 100 ? v.toFixed(0) : Math.abs(v) >= 10 ? v.toFixed(1) : v.toFixed(2);

/**
 * One row per target measured and per `AB_FIGURES` figure found: the median of each run of the base,
 * then of the change, in the order they ran (pair 1 first).
 */
export function abTable(base: readonly BenchResults[], change: readonly BenchResults[]): string {
  const rows: string[] = [];
  const row = (label: string, of: (r: BenchResults) => number | undefined) => {
    const a = base.map(of);
    const b = change.map(of);
    if ([...a, ...b].every((v) => v === undefined || !Number.isFinite(v))) return;
    const cells = (vs: (number | undefined)[]) =>
      vs.map((v) => (v === undefined || !Number.isFinite(v) ? '–' : fmt(v))).join(', ');
    rows.push(`| ${label} | ${cells(a)} | ${cells(b)} |`);
  };
  const targets = [...base, ...change].flatMap((r) => r.targets);
  for (const id of [...new Set(targets.map((t) => t.id))]) {
    const { description, unit } = targets.find((t) => t.id === id)!;
    row(`${description} (${unit})`, (r) => r.targets.find((t) => t.id === id)?.value);
  }
  for (const [scenario, metric] of AB_FIGURES)
    row(
      `${scenario}: ${metric}`,
      (r) => r.figures.find((f) => f.scenario === scenario && f.metric === metric)?.figure.median,
    );
  return ['| figure | base | change |', '| --- | --- | --- |', ...rows].join('\n');
}

/** Runs a command to its end; its output goes to `log` when given, else to this process's. */
function run(command: string, args: string[], cwd: string, log?: string): void {
  const output = log === undefined ? 'inherit' : openSync(log, 'w');
  const done = spawnSync(command, args, { cwd, stdio: ['ignore', output, output] });
  if (typeof output === 'number') closeSync(output);
  if (done.status !== 0) throw new Error(`${command} ${args.join(' ')} (in ${cwd}) exited ${done.status}`);
}

/**
 * The base commit built in a worktree of its own under the system's temporary folder (its
 * dependencies are this tree's), removed once the A/B is done.
 */
function buildBase(commit: string): string {
  const dir = join(tmpdir(), `openq-ab-${commit.slice(0, 12)}-${process.pid}`);
  run('git', ['worktree', 'add', '--detach', dir, commit], REPO_ROOT);
  symlinkSync(join(REPO_ROOT, 'node_modules'), join(dir, 'node_modules'));
  run(
    process.execPath,
    [join(REPO_ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'],
    dir,
  );
  // The web inbox's bundle is served, not measured: this tree's will do.
  cpSync(join(REPO_ROOT, 'dist/inbox'), join(dir, 'dist/inbox'), { recursive: true });
  return dir;
}

function resultsIn(dir: string): BenchResults {
  const file = readdirSync(dir).find((f) => f.endsWith('.json'));
  if (!file) throw new Error(`bench:ab: no results in ${dir}`);
  return JSON.parse(readFileSync(join(dir, file), 'utf8')) as BenchResults;
}

async function main(argv: string[]): Promise<number> {
  let commit: string | undefined;
  let pairs = 3;
  let only = 'resume,peer,peak';
  let out = join(REPO_ROOT, 'test/artifacts/bench-ab', new Date().toISOString().replace(/[:.]/g, '-'));
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--pairs') pairs = Number(argv[++i]);
    else if (arg === '--only') only = argv[++i] ?? only;
    else if (arg === '--out') out = argv[++i] ?? out;
    else if (!arg.startsWith('-') && commit === undefined) commit = arg;
    else {
      process.stderr.write(`${USAGE}\n`);
      return arg === '--help' || arg === '-h' ? 0 : 2;
    }
  }
  if (!commit || !Number.isInteger(pairs) || pairs < 1) {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  const sides = { base: buildBase(commit), change: REPO_ROOT };
  const results: Record<keyof typeof sides, BenchResults[]> = { base: [], change: [] };
  try {
    for (let pair = 1; pair <= pairs; pair++) {
      const order: (keyof typeof sides)[] = pair % 2 === 1 ? ['base', 'change'] : ['change', 'base'];
      for (const side of order) {
        const dir = join(out, `${side}-${pair}`);
        mkdirSync(dir, { recursive: true });
        process.stdout.write(`bench:ab: pair ${pair}/${pairs}, ${side} (log: ${join(dir, 'bench.log')})\n`);
        run(
          process.execPath,
          ['dist/test/bench/run.js', '--quick', '--only', only, '--out', dir],
          sides[side],
          join(dir, 'bench.log'),
        );
        results[side].push(resultsIn(dir));
      }
    }
  } finally {
    run('git', ['worktree', 'remove', '--force', sides.base], REPO_ROOT);
  }
  process.stdout.write(
    `\nbase ${commit} against this tree, ${pairs} pairs (--quick --only ${only}; each run's medians, pair 1 first)\n\n` +
      `${abTable(results.base, results.change)}\n\nwritten: ${out}\n`,
  );
  return 0;
}

if (require.main === module)
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      process.stderr.write(`bench:ab: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    },
  );
