import { daysFromCivil } from '@openq/contracts';

/**
 * The instants a grant carries, read and written without the `Date` global (the domain is pure).
 * `epochMillis` reads what `isTimestamp` (the commands' validator) lets through exactly as
 * `Date.parse` does: fraction cut to the millisecond, a day up to 31 in any month carried into the
 * next, 24:00:00 as the next midnight, zones up to ±23:59; anything else is null.
 */
const TIMESTAMP =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(Z|([+-])(\d{2}):(\d{2}))$/;

const DAY_MS = 86_400_000;

/** Milliseconds since the epoch of an ISO-8601 timestamp with zone, or null for any other text. */
export function epochMillis(text: string): number | null {
  const m = TIMESTAMP.exec(text);
  if (!m) return null;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const millis = Number((m[7] ?? '').padEnd(3, '0').slice(0, 3));
  if (month < 1 || month > 12 || day < 1 || day > 31 || minute > 59 || second > 59) return null;
  if (hour > 24 || (hour === 24 && (minute > 0 || second > 0 || millis > 0))) return null;
  let offset = 0;
  if (m[9]) {
    const oh = Number(m[10]);
    const om = Number(m[11]);
    if (oh > 23 || om > 59) return null;
    offset = (m[9] === '-' ? -1 : 1) * (oh * 60 + om) * 60_000;
  }
  return (
    daysFromCivil(year, month, day) * DAY_MS + ((hour * 60 + minute) * 60 + second) * 1000 + millis - offset
  );
}

/** The ISO-8601 text `Date#toISOString` writes for these milliseconds since the epoch (years 0–9999). */
export function isoOf(epoch: number): string {
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
