import '../../tools/register-paths';
import 'reflect-metadata';
import { relative } from 'node:path';
import { PHASES, runBench, STACK_SCENARIOS } from './bench';
import { markdownTable } from './support/report';
import { REPO_ROOT } from './support/processes';

const USAGE = `usage: npm run bench [-- --quick] [--only stack|ingest|resume|peer|peak|burst|reads|parked,...] [--out DIR]
  (no flag)  the full bench (~10 min on 2 cores); results in test/bench/results/<date>.{json,md,svg}
  --quick    seconds per scenario, small N, 3 runs; results in test/artifacts/bench/`;

async function main(argv: string[]): Promise<number> {
  const options: Parameters<typeof runBench>[0] = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--quick') options.quick = true;
    else if (arg === '--only') options.only = (argv[++i] ?? '').split(',').filter(Boolean);
    else if (arg === '--out') options.outDir = argv[++i];
    else {
      process.stderr.write(`${USAGE}\n`);
      return arg === '--help' || arg === '-h' ? 0 : 2;
    }
  }
  const known: readonly string[] = [...PHASES, ...STACK_SCENARIOS];
  const unknown = (options.only ?? []).filter((p) => !known.includes(p));
  if (unknown.length > 0) {
    process.stderr.write(`bench: unknown scenario ${unknown.join(', ')} (one of ${known.join(', ')})\n`);
    return 2;
  }
  const { results, paths } = await runBench(options);
  process.stdout.write(`\n${markdownTable(results.figures)}\n\n`);
  for (const t of results.targets)
    process.stdout.write(
      `${!Number.isFinite(t.value) ? 'n/a   ' : t.met ? 'met   ' : 'MISSED'} ${t.description}: ${Number.isFinite(t.value) ? t.value.toFixed(2) : '–'} ${t.unit} (${t.limit})\n`,
    );
  for (const [scenario, error] of Object.entries(results.errors))
    process.stdout.write(`FAILED ${scenario}: ${error}\n`);
  process.stdout.write(
    `\nwritten: ${Object.values(paths)
      .map((p) => relative(REPO_ROOT, p))
      .join(', ')}\n`,
  );
  return Object.keys(results.errors).length > 0 ? 1 : 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(
      `bench: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(1);
  },
);
