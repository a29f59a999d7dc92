// Issue #33 (SPEC §12.4) question quality: which agent asks well, as a few small charts a team reads
// at a glance, each with its numbers as a table (for screen readers, and for anyone who wants them).
// Chart.js is bundled (tools/build-inbox.js); `chart.js/auto` registers every chart type.
import Chart, { type ChartConfiguration, type TooltipItem } from 'chart.js/auto';
import { h } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import htm from 'htm';
import { api, projectPath } from './api';
import { useResource } from './hooks';
import { formatNumber, language, t } from './i18n';
import { agentName, sentenceFor } from './messages';
import { viewHref } from './settings';
import { ANALYTICS_FIELDS, type AnalyticsReply, type AnalyticsRow } from '@openq/contracts/browser';
import type { View } from './types';

const html = htm.bind(h);

/** A duration in minutes, short, in the unit that suits it: "0.4 s", "12 s", "40 min", "1.5 h", "3 d". */
export function duration(minutes: number | string | null | undefined): string {
  if (minutes === null || minutes === undefined) return '—';
  // Chart.js hands a tick's value as a number (or, on a category axis, a string).
  minutes = Number(minutes);
  const [value, unit]: [number, string] =
    minutes < 1
      ? [minutes * 60, 's']
      : minutes < 60
        ? [minutes, 'min']
        : minutes < 48 * 60
          ? [minutes / 60, 'h']
          : [minutes / 1440, 'd'];
  const digits = value < 10 && value !== 0 ? 1 : 0;
  const number = new Intl.NumberFormat(language(), { maximumFractionDigits: digits }).format(value);
  return t(`analytics.units.${unit}`, { value: number });
}

const answered = (r: Pick<AnalyticsRow, 'answeredByClick' | 'answeredByAgent'>) =>
  r.answeredByClick + r.answeredByAgent;

/** Share of answers that took the agent's suggestion, 0..100; null with no answer. */
function acceptance(
  r: Pick<AnalyticsRow, 'answeredByClick' | 'answeredByAgent' | 'suggestionAccepted'>,
): number | null {
  return answered(r) === 0 ? null : Math.round((100 * r.suggestionAccepted) / answered(r));
}

function percent(value: number | string | null): string {
  return value === null
    ? '—'
    : new Intl.NumberFormat(language(), { style: 'percent' }).format(Number(value) / 100);
}

/** A day (`2026-11-30`) in the person's language. */
function dayLabel(key: string): string {
  return new Intl.DateTimeFormat(language(), { dateStyle: 'medium', timeZone: 'UTC' }).format(
    new Date(`${key}T00:00:00Z`),
  );
}

/** A week's Monday (`2026-11-30`) as a short day in the person's language. */
function weekLabel(key: string): string {
  return new Intl.DateTimeFormat(language(), { day: 'numeric', month: 'short', timeZone: 'UTC' }).format(
    new Date(`${key}T00:00:00Z`),
  );
}

type Palette = ReturnType<typeof palette>;

function palette() {
  const css = getComputedStyle(document.documentElement);
  const v = (name: string, fallback: string) => css.getPropertyValue(name).trim() || fallback;
  return {
    text: v('--muted', '#5a6372'),
    grid: v('--border', '#dfe3e8'),
    first: v('--accent', '#4338ca'),
    second: v('--warn-border', '#f0c36a'),
  };
}

/** One Chart.js chart on a canvas, drawn again when its config changes (data, language). */
function ChartCanvas({ config, label }: { config: ChartConfiguration; label: string }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    if (!Chart || !canvas.current) return undefined;
    const chart = new Chart(canvas.current, config);
    return () => chart.destroy();
  }, [config]);
  // The table next to it says the same to a screen reader: the picture is not read out.
  return html`<div class="chart-box"><canvas ref=${canvas} role="img" aria-label=${label}></canvas></div>`;
}

function baseOptions(
  colors: Palette,
  { horizontal = false, yTicks }: { horizontal?: boolean; yTicks?: (value: number | string) => string } = {},
) {
  const value = {
    ticks: { color: colors.text, ...(yTicks ? { callback: yTicks } : {}) },
    grid: { color: colors.grid },
    beginAtZero: true,
  };
  const category = {
    ticks: { color: colors.text, autoSkip: true, maxRotation: 0 },
    grid: { display: false },
  };
  return {
    responsive: true,
    maintainAspectRatio: false,
    animation: false,
    indexAxis: horizontal ? 'y' : 'x',
    scales: horizontal ? { x: value, y: category } : { x: category, y: value },
    plugins: {
      legend: {
        labels: {
          color: colors.text,
          boxWidth: 10,
          boxHeight: 10,
          usePointStyle: true,
          pointStyle: 'rectRounded',
        },
      },
      tooltip: { enabled: true },
    },
  };
}

function AnswerTimeChart({ weeks }: { weeks: AnalyticsRow[] }) {
  const colors = palette();
  const lng = language();
  const config = useChartConfig(
    () => ({
      type: 'line',
      data: {
        labels: weeks.map((w) => weekLabel(w.key)),
        datasets: [
          {
            label: t('analytics.median'),
            data: weeks.map((w) => w.answerMinutesP50),
            borderColor: colors.first,
            backgroundColor: colors.first,
            spanGaps: true,
          },
          {
            label: t('analytics.p90'),
            data: weeks.map((w) => w.answerMinutesP90),
            borderColor: colors.second,
            backgroundColor: colors.second,
            borderDash: [5, 4],
            spanGaps: true,
          },
        ],
      },
      options: {
        ...baseOptions(colors, { yTicks: (v) => duration(v) }),
        plugins: {
          ...baseOptions(colors).plugins,
          tooltip: {
            callbacks: { label: (c: TooltipItem<'line'>) => `${c.dataset.label}: ${duration(c.parsed.y)}` },
          },
        },
      },
    }),
    [weeks, lng],
  );
  return html`<section class="panel chart-panel" aria-labelledby="chart-answer-time">
    <h2 id="chart-answer-time">${t('analytics.answerTime.title')}</h2>
    <p class="panel-sub">${t('analytics.answerTime.sub')}</p>
    <${ChartCanvas} config=${config} label=${t('analytics.answerTime.title')} />
    <div class="visually-hidden"><table>
      <caption>${t('analytics.answerTime.title')}</caption>
      <thead><tr><th scope="col">${t('analytics.week')}</th><th scope="col">${t('analytics.median')}</th><th scope="col">${t('analytics.p90')}</th><th scope="col">${t('analytics.fields.answered')}</th></tr></thead>
      <tbody>
        ${weeks.map((w) => html`<tr key=${w.key}><th scope="row">${weekLabel(w.key)}</th><td>${duration(w.answerMinutesP50)}</td><td>${duration(w.answerMinutesP90)}</td><td>${formatNumber(answered(w))}</td></tr>`)}
      </tbody>
    </table></div>
  </section>`;
}

function AcceptanceChart({ roles }: { roles: AnalyticsRow[] }) {
  const colors = palette();
  const lng = language();
  const shown = roles.filter((r) => answered(r) > 0);
  const config = useChartConfig(
    () => ({
      type: 'bar',
      data: {
        labels: shown.map((r) => agentName(r.key)),
        datasets: [
          {
            label: t('analytics.acceptance.series'),
            data: shown.map(acceptance),
            backgroundColor: colors.first,
            maxBarThickness: 36,
          },
        ],
      },
      options: {
        ...baseOptions(colors, { yTicks: (v) => percent(v) }),
        scales: {
          ...baseOptions(colors).scales,
          y: {
            ...baseOptions(colors).scales.y,
            max: 100,
            ticks: { color: colors.text, callback: (v: number | string) => percent(v) },
          },
        },
        plugins: {
          legend: { display: false },
          tooltip: {
            callbacks: {
              label: (c: TooltipItem<'bar'>) =>
                t('analytics.acceptance.of', {
                  accepted: shown[c.dataIndex]!.suggestionAccepted,
                  answered: answered(shown[c.dataIndex]!),
                }),
            },
          },
        },
      },
    }),
    [roles, lng],
  );
  return html`<section class="panel chart-panel" aria-labelledby="chart-acceptance">
    <h2 id="chart-acceptance">${t('analytics.acceptance.title')}</h2>
    <p class="panel-sub">${t('analytics.acceptance.sub')}</p>
    ${
      shown.length === 0
        ? html`<p class="empty">${t('analytics.noAnswers')}</p>`
        : html`<${ChartCanvas} config=${config} label=${t('analytics.acceptance.title')} />`
    }
    <div class="visually-hidden"><table>
      <caption>${t('analytics.acceptance.title')}</caption>
      <thead><tr><th scope="col">${t('analytics.agent')}</th><th scope="col">${t('analytics.acceptance.series')}</th><th scope="col">${t('analytics.fields.suggestionAccepted')}</th><th scope="col">${t('analytics.fields.answered')}</th></tr></thead>
      <tbody>
        ${shown.map((r) => html`<tr key=${r.key}><th scope="row">${agentName(r.key)}</th><td>${percent(acceptance(r))}</td><td>${formatNumber(r.suggestionAccepted)}</td><td>${formatNumber(answered(r))}</td></tr>`)}
      </tbody>
    </table></div>
  </section>`;
}

function WaitsChart({ roles }: { roles: AnalyticsRow[] }) {
  const colors = palette();
  const lng = language();
  const shown = roles
    .filter((r) => r.answerMinutesP90 !== null || r.parkedMinutesP50 !== null)
    .sort((a, b) => (b.answerMinutesP90 ?? 0) - (a.answerMinutesP90 ?? 0));
  const config = useChartConfig(
    () => ({
      type: 'bar',
      data: {
        labels: shown.map((r) => agentName(r.key)),
        datasets: [
          {
            label: t('analytics.waits.answer'),
            data: shown.map((r) => r.answerMinutesP90),
            backgroundColor: colors.first,
            maxBarThickness: 22,
          },
          {
            label: t('analytics.waits.parked'),
            data: shown.map((r) => r.parkedMinutesP50),
            backgroundColor: colors.second,
            maxBarThickness: 22,
          },
        ],
      },
      options: {
        ...baseOptions(colors, { horizontal: true }),
        scales: {
          ...baseOptions(colors, { horizontal: true }).scales,
          x: {
            ...baseOptions(colors, { horizontal: true }).scales.x,
            ticks: { color: colors.text, callback: (v: number | string) => duration(v), maxTicksLimit: 5 },
          },
        },
        plugins: {
          ...baseOptions(colors).plugins,
          tooltip: {
            callbacks: { label: (c: TooltipItem<'bar'>) => `${c.dataset.label}: ${duration(c.parsed.x)}` },
          },
        },
      },
    }),
    [roles, lng],
  );
  return html`<section class="panel chart-panel" aria-labelledby="chart-waits">
    <h2 id="chart-waits">${t('analytics.waits.title')}</h2>
    <p class="panel-sub">${t('analytics.waits.sub')}</p>
    ${
      shown.length === 0
        ? html`<p class="empty">${t('analytics.noAnswers')}</p>`
        : html`<${ChartCanvas} config=${config} label=${t('analytics.waits.title')} />`
    }
    <div class="visually-hidden"><table>
      <caption>${t('analytics.waits.title')}</caption>
      <thead><tr><th scope="col">${t('analytics.agent')}</th><th scope="col">${t('analytics.waits.answer')}</th><th scope="col">${t('analytics.waits.parked')}</th></tr></thead>
      <tbody>
        ${shown.map((r) => html`<tr key=${r.key}><th scope="row">${agentName(r.key)}</th><td>${duration(r.answerMinutesP90)}</td><td>${duration(r.parkedMinutesP50)}</td></tr>`)}
      </tbody>
    </table></div>
  </section>`;
}

/** A config object kept while `deps` stay equal, so a chart is drawn again only when they change. */
function useChartConfig<T>(make: () => T, deps: readonly unknown[]): T {
  const kept = useRef<{ deps: readonly unknown[] | null; config: T | null }>({ deps: null, config: null });
  const same =
    kept.current.deps &&
    deps.length === kept.current.deps.length &&
    deps.every((d, i) => d === kept.current.deps![i]);
  if (!same) kept.current = { deps, config: make() };
  return kept.current.config as T;
}

/** Every figure of a row (its `key` is the row's heading). */
type Figure = Exclude<(typeof ANALYTICS_FIELDS)[number], 'key'>;
/** The figures that count (the others are minutes, or none). */
type CountField = { [F in Figure]: AnalyticsRow[F] extends number ? F : never }[Figure];
const FIELDS = ANALYTICS_FIELDS.filter((f): f is Figure => f !== 'key');

/** Every figure per agent: the page's whole table (it scrolls sideways on a phone). */
function FiguresTable({ roles, csv }: { roles: AnalyticsRow[]; csv: (by: string) => string }) {
  const cell = (r: AnalyticsRow, f: Figure) =>
    f.endsWith('P50') || f.endsWith('P90') ? duration(r[f]) : formatNumber(r[f] ?? 0);
  return html`<section class="panel figures" aria-labelledby="figures-title">
    <div class="panel-head">
      <h2 id="figures-title">${t('analytics.figures.title')}</h2>
      <span class="csv-links">
        <a href=${csv('role')} download>${t('analytics.csvByRole')}</a>
        <a href=${csv('week')} download>${t('analytics.csvByWeek')}</a>
      </span>
    </div>
    <div class="table-scroll" tabindex="0" role="region" aria-labelledby="figures-title">
      <table class="figures-table" aria-labelledby="figures-title">
        <thead>
          <tr>
            <th scope="col">${t('analytics.agent')}</th>
            ${FIELDS.map((f) => html`<th scope="col" key=${f}>${t(`analytics.fields.${f}`)}</th>`)}
          </tr>
        </thead>
        <tbody>
          ${roles.map(
            (r) => html`<tr key=${r.key}>
              <th scope="row">${agentName(r.key)}</th>
              ${FIELDS.map((f) => html`<td key=${f}>${cell(r, f)}</td>`)}
            </tr>`,
          )}
        </tbody>
      </table>
    </div>
  </section>`;
}

/** The figures at the top: what a person takes in first. */
function Headline({ roles }: { roles: AnalyticsRow[] }) {
  const total = (f: CountField) => roles.reduce((n, r) => n + r[f], 0);
  const sum = {
    suggestionAccepted: total('suggestionAccepted'),
    answeredByClick: total('answeredByClick'),
    answeredByAgent: total('answeredByAgent'),
  };
  const tiles = [
    [t('analytics.fields.asked'), formatNumber(total('asked'))],
    [t('analytics.fields.answered'), formatNumber(answered(sum))],
    [t('analytics.acceptance.series'), percent(acceptance(sum))],
    [t('analytics.fields.amended'), formatNumber(total('amended'))],
  ];
  return html`<dl class="headline">
    ${tiles.map(([term, value]) => html`<div class="tile" key=${term}><dt>${term}</dt><dd>${value}</dd></div>`)}
  </dl>`;
}

/** The page (`?view=analytics`): the last 12 weeks of the project. */
export function AnalyticsPage({ projectId, onView }: { projectId: string; onView: (view: View) => void }) {
  const title = useRef<HTMLHeadingElement>(null);
  const byRole = useResource(
    () => api<AnalyticsReply>(projectPath(projectId, '/analytics?by=role')),
    projectId,
  );
  const byWeek = useResource(
    () => api<AnalyticsReply>(projectPath(projectId, '/analytics?by=week')),
    projectId,
  );
  useEffect(() => {
    title.current?.focus({ preventScroll: true });
    window.scrollTo(0, 0);
  }, [projectId]);
  const csv = (by: string) => projectPath(projectId, `/analytics.csv?by=${by}`);
  const error = byRole.error ?? byWeek.error;
  const ready = byRole.data && byWeek.data;

  return html`<main class="layout single analytics-page" id="main">
    <div class="settings-head">
      <h1 class="page-title" id="analytics-title" tabindex="-1" ref=${title}>${t('analytics.title', { projectId })}</h1>
      <p class="panel-sub">
        ${ready ? t('analytics.window', { from: dayLabel(byWeek.data!.from), to: dayLabel(byWeek.data!.to) }) : t('analytics.sub')}
      </p>
      <nav class="settings-index" aria-label=${t('analytics.nav')}>
        <a
          href=${viewHref(projectId, 'inbox')}
          onClick=${(e: MouseEvent) => {
            if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
            e.preventDefault();
            onView('inbox');
          }}
          >${t('settings.backToInbox')}</a
        >
      </nav>
    </div>
    ${error && html`<p class="error" role="alert">${sentenceFor(error)}</p>`}
    ${!ready && !error && html`<p class="boot" role="status">${t('analytics.loading')}</p>`}
    ${
      ready &&
      html`<${Headline} roles=${byRole.data!.rows} />
      <div class="analytics-grid">
        <${AnswerTimeChart} weeks=${byWeek.data!.rows} />
        <${AcceptanceChart} roles=${byRole.data!.rows} />
        <${WaitsChart} roles=${byRole.data!.rows} />
      </div>
      <${FiguresTable} roles=${byRole.data!.rows} csv=${csv} />`
    }
  </main>`;
}
