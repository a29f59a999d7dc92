import { FULL_SCALE } from './scale';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export type Row = Record<string, string | number | boolean | null>;

/** A small aligned table on stdout (console.log), the figures of a fault test. */
export function printTable(title: string, rows: Row[]): void {
  if (rows.length === 0) return;
  const columns = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  const cell = (v: unknown) => (v === null || v === undefined ? '' : String(v));
  const widths = columns.map((c) => Math.max(c.length, ...rows.map((r) => cell(r[c]).length)));
  const line = (values: string[]) => `| ${values.map((v, i) => v.padEnd(widths[i]!)).join(' | ')} |`;
  const out = [
    `\n${title}`,
    line(columns),
    `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`,
    ...rows.map((r) => line(columns.map((c) => cell(r[c])))),
  ];
  console.log(out.join('\n'));
}

/** Key → value as a two-column table. */
export function printFigures(title: string, figures: Record<string, string | number | boolean | null>): void {
  printTable(
    title,
    Object.entries(figures).map(([figure, value]) => ({ figure, value })),
  );
}

/**
 * Keeps the figures of the latest full run next to the others (test/artifacts/faults/<name>.json);
 * a shrunk run (FAULTS_SCALE < 1) leaves them alone.
 */
export function saveFigures(name: string, figures: unknown): void {
  if (!FULL_SCALE) return;
  const dir = join(__dirname, '..', '..', 'artifacts', 'faults');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${name}.json`), `${JSON.stringify(figures, null, 2)}\n`);
}
