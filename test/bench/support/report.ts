import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BenchResults, FigureRow } from './results';

/** Three significant digits, no exponent: 1234 → "1,234", 0.01234 → "0.0123". */
export function fmt(n: number): string {
  if (!Number.isFinite(n)) return '–';
  const abs = Math.abs(n);
  const digits = abs >= 100 ? 0 : abs >= 10 ? 1 : abs >= 1 ? 2 : 3;
  return n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: 0 });
}

export function markdownTable(rows: readonly FigureRow[]): string {
  const lines = [
    '| scenario | metric | median | spread (min – max) | IQR (q1 – q3) | unit | runs |',
    '|---|---|---:|---:|---:|---|---:|',
  ];
  for (const { scenario, metric, figure: f } of rows) {
    lines.push(
      `| ${scenario} | ${metric} | **${fmt(f.median)}** | ${fmt(f.min)} – ${fmt(f.max)} | ${fmt(f.q1)} – ${fmt(f.q3)} | ${f.unit} | ${f.runs.length} |`,
    );
  }
  return lines.join('\n');
}

export function markdownReport(results: BenchResults): string {
  const m = results.meta;
  const out = [
    `# openq bench — ${String(m.date)} (${String(m.mode)})`,
    '',
    `${String(m.machine)}; Node ${String(m.node)}; ${String(m.postgres)}; nats-server ${String(m.natsServer)}; commit ${String(m.commit)}; ${String(m.runs)} runs; took ${String(m.durationS)} s; load average (1/5/15 min) ${JSON.stringify(m.loadAtStart)} at the start, ${JSON.stringify(m.loadAtEnd)} at the end.`,
    '',
    'Every figure: the median over the runs, with the spread (min – max) and the interquartile range.',
    'Each ratio is taken inside a run (scenario and its floor measured back to back), then summarised.',
    '',
    markdownTable(results.figures),
    '',
    '## Targets',
    '',
    '| target | measured (median) | limit | |',
    '|---|---:|---|---|',
    ...results.targets.map(
      (t) =>
        `| ${t.description} | ${fmt(t.value)} ${t.unit} | ${t.limit} | ${!Number.isFinite(t.value) ? 'not measured' : t.met ? 'met' : '**missed**'} |`,
    ),
  ];
  const errors = Object.entries(results.errors);
  if (errors.length > 0)
    out.push('', '## Scenarios that failed', '', ...errors.map(([s, e]) => `- **${s}**: ${e}`));
  return `${out.join('\n')}\n`;
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * A small SVG chart: one horizontal bar per latency figure (median), with a whisker for its
 * min – max over the runs, on a log scale so 1 ms and 100 ms both read.
 */
export function svgChart(results: BenchResults): string {
  const rows = results.figures.filter(
    (r) =>
      r.figure.unit === 'ms' &&
      !r.metric.startsWith('CPU') &&
      Number.isFinite(r.figure.median) &&
      r.figure.median > 0,
  );
  const width = 1100;
  const left = 470;
  const barH = 16;
  const gap = 8;
  const top = 40;
  const height = top + rows.length * (barH + gap) + 40;
  const maxV = Math.max(1, ...rows.map((r) => r.figure.max));
  // A log scale starts above zero: a run that measured 0 (a p50 under the clock's step) is drawn
  // at the scale's start, not allowed to take the scale to −∞.
  const minV = Math.min(0.1, ...rows.map((r) => r.figure.min).filter((v) => v > 0));
  const lo = Math.log10(minV);
  const hi = Math.log10(maxV) + 0.1;
  const x = (v: number) => left + ((Math.log10(Math.max(v, minV)) - lo) / (hi - lo)) * (width - left - 80);
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif" font-size="12">`,
    `<rect width="100%" height="100%" fill="white"/>`,
    `<text x="10" y="20" font-size="14" font-weight="bold">${esc(`openq bench ${String(results.meta.date)} (${String(results.meta.mode)}) — latencies: bar = median, line = min–max over ${String(results.meta.runs)} runs (log scale); blue floor, orange LangGraph, green openq`)}</text>`,
  ];
  for (let d = Math.floor(lo); d <= Math.ceil(hi); d++) {
    const v = 10 ** d;
    if (v < minV || v > 10 ** hi) continue;
    parts.push(`<line x1="${x(v)}" x2="${x(v)}" y1="${top - 6}" y2="${height - 30}" stroke="#ddd"/>`);
    parts.push(
      `<text x="${x(v)}" y="${height - 14}" text-anchor="middle" fill="#555">${v >= 1 ? v : v.toFixed(Math.abs(d))} ms</text>`,
    );
  }
  rows.forEach((r, i) => {
    const y = top + i * (barH + gap);
    const color = r.scenario.includes('floor')
      ? '#8da0cb'
      : r.scenario.includes('peer')
        ? '#fc8d62'
        : '#66c2a5';
    const label = `${r.scenario} · ${r.metric}`;
    parts.push(
      `<text x="${left - 8}" y="${y + barH - 4}" text-anchor="end" font-size="11">${esc(label.length > 78 ? `${label.slice(0, 77)}…` : label)}</text>`,
    );
    parts.push(
      `<rect x="${left}" y="${y}" width="${Math.max(1, x(r.figure.median) - left)}" height="${barH}" fill="${color}"/>`,
    );
    parts.push(
      `<line x1="${x(r.figure.min)}" x2="${x(r.figure.max)}" y1="${y + barH / 2}" y2="${y + barH / 2}" stroke="#333"/>`,
    );
    parts.push(
      `<text x="${x(r.figure.max) + 4}" y="${y + barH - 4}" fill="#333">${esc(fmt(r.figure.median))}</text>`,
    );
  });
  parts.push('</svg>');
  return parts.join('\n');
}

/** Writes `<stamp>.json`, `<stamp>.md` and `<stamp>.svg` into `dir`; returns their paths. */
export function writeResults(
  dir: string,
  stamp: string,
  results: BenchResults,
): { json: string; md: string; svg: string } {
  mkdirSync(dir, { recursive: true });
  const paths = {
    json: join(dir, `${stamp}.json`),
    md: join(dir, `${stamp}.md`),
    svg: join(dir, `${stamp}.svg`),
  };
  writeFileSync(paths.json, `${JSON.stringify(results, null, 2)}\n`);
  writeFileSync(paths.md, markdownReport(results));
  writeFileSync(paths.svg, svgChart(results));
  return paths;
}
