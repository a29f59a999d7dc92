import { daysFromCivil } from './calendar';

/*
 * The ONE reader of ISO-8601 / RFC 3339 timestamps for the pure domains (no `Date`, no clock):
 * what `isTimestamp` lets on the wire, read exactly. `Date.parse` would both accept text that is
 * no timestamp and round to the millisecond (file mtimes a few microseconds apart would tie).
 * A date, `T` (or `t`, or a space), a time with seconds, up to nine fraction digits, and `Z` or
 * an `±HH:MM` offset; the date must exist (2025-02-29 does not) and the fields be in range.
 */
const RFC3339 =
  /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?([Zz]|([+-])(\d{2}):(\d{2}))$/;

const isLeap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
const daysInMonth = (y: number, m: number) =>
  [31, isLeap(y) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1] ?? 0;

const NANOS_PER_MILLI = 1_000_000n;

/** Nanoseconds since the epoch of an RFC 3339 timestamp, or null when the text is not one. */
export function parseTimestamp(text: string): bigint | null {
  const m = RFC3339.exec(text);
  if (!m) return null;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  if (hour > 23 || minute > 59 || second > 59) return null;
  let offset = 0;
  if (m[9]) {
    const oh = Number(m[10]);
    const om = Number(m[11]);
    if (oh > 23 || om > 59) return null;
    offset = (m[9] === '-' ? -1 : 1) * (oh * 3600 + om * 60);
  }
  const seconds = daysFromCivil(year, month, day) * 86400 + hour * 3600 + minute * 60 + second - offset;
  return BigInt(seconds) * 1_000_000_000n + BigInt((m[7] ?? '').padEnd(9, '0'));
}

/**
 * Milliseconds since the epoch (what `Date#getTime` gives; digits past the millisecond are
 * dropped toward the past), or null when the text is not an RFC 3339 timestamp.
 */
export function epochMillis(text: string): number | null {
  const nanos = parseTimestamp(text);
  if (nanos === null) return null;
  const millis = nanos / NANOS_PER_MILLI;
  return Number(nanos % NANOS_PER_MILLI < 0n ? millis - 1n : millis);
}

/** Newest first, to the nanosecond; a text that is not a timestamp sorts after every one that is. */
export function compareInstantsDesc(a: string, b: string): number {
  const x = parseTimestamp(a);
  const y = parseTimestamp(b);
  if (x === y) return 0;
  if (x === null) return 1;
  if (y === null) return -1;
  return y > x ? 1 : -1;
}

const DAY_MS = 86_400_000;

/** The ISO-8601 text `Date#toISOString` writes for these milliseconds since the epoch (years 0–9999). */
export function isoOfEpochMillis(epoch: number): string {
  const days = Math.floor(epoch / DAY_MS);
  const inDay = epoch - days * DAY_MS;
  // H. Hinnant's civil_from_days, the inverse of `daysFromCivil`.
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const dayOfEra = z - era * 146097;
  const yearOfEra = Math.floor(
    (dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36524) - Math.floor(dayOfEra / 146096)) /
      365,
  );
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const mp = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  const hour = Math.floor(inDay / 3_600_000);
  const minute = Math.floor((inDay % 3_600_000) / 60_000);
  const second = Math.floor((inDay % 60_000) / 1000);
  return `${pad(year, 4)}-${pad(month)}-${pad(day)}T${pad(hour)}:${pad(minute)}:${pad(second)}.${pad(inDay % 1000, 3)}Z`;
}
