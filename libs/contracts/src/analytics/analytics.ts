import { IsOptional, ValidateBy, type ValidationArguments } from 'class-validator';
import { IsOneOf } from '../validators';
import {
  ANALYTICS_DEFAULT_DAYS,
  ANALYTICS_FIELDS,
  ANALYTICS_GROUPINGS,
  ANALYTICS_MAX_DAYS,
  type AnalyticsGrouping,
  type AnalyticsRow,
} from './analytics-fields';

export * from './analytics-fields';

const DAY_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

/** A calendar day `YYYY-MM-DD` that exists (2026-02-30 does not). */
export function isDay(value: unknown): value is string {
  if (typeof value !== 'string' || !DAY_PATTERN.test(value)) return false;
  const at = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(at.getTime()) && at.toISOString().slice(0, 10) === value;
}

export function IsDay(): PropertyDecorator {
  return ValidateBy({
    name: 'isDay',
    validator: {
      validate: (value: unknown) => isDay(value),
      defaultMessage: (args?: ValidationArguments) =>
        `${args?.property ?? 'value'} must be a day written YYYY-MM-DD`,
    },
  });
}

/**
 * `?from=&to=&by=`: days `YYYY-MM-DD` (UTC, both included) and the grouping. A malformed value is
 * 400 `parametro_invalido` naming it; a window that is not one is `periodo_invalido`
 * (`analyticsPeriod`).
 */
export class AnalyticsQuery {
  @IsOptional()
  @IsDay()
  from?: string;

  @IsOptional()
  @IsDay()
  to?: string;

  @IsOneOf(ANALYTICS_GROUPINGS)
  by: AnalyticsGrouping = 'week';
}

const DAY_MS = 86_400_000;

function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/**
 * The window a query asks for, with its defaults (`to`: today in UTC; `from`: 84 days ending on
 * `to`), or why it is not one.
 */
export function analyticsPeriod(
  query: { from?: string; to?: string },
  now: Date,
): { ok: true; from: string; to: string } | { ok: false; reason: 'periodo_invalido'; message: string } {
  const to = query.to ?? now.toISOString().slice(0, 10);
  const from = query.from ?? addDays(to, 1 - ANALYTICS_DEFAULT_DAYS);
  if (from > to) return { ok: false, reason: 'periodo_invalido', message: `from ${from} is after to ${to}` };
  const days = (Date.parse(to) - Date.parse(from)) / DAY_MS + 1;
  if (days > ANALYTICS_MAX_DAYS)
    return {
      ok: false,
      reason: 'periodo_invalido',
      message: `from ${from} to ${to} spans ${days} days; at most ${ANALYTICS_MAX_DAYS}`,
    };
  return { ok: true, from, to };
}

/** The rows as CSV: a header of the field names, one line per row, empty cells for null. */
export function analyticsCsv(rows: readonly AnalyticsRow[]): string {
  // Every cell is a number, a role of §3.1 or a day: nothing to quote or escape.
  const lines = [ANALYTICS_FIELDS.join(',')];
  for (const row of rows)
    lines.push(ANALYTICS_FIELDS.map((f) => (row[f] === null ? '' : String(row[f]))).join(','));
  return `${lines.join('\r\n')}\r\n`;
}
