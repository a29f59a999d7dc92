import { daysFromCivil } from '@openq/contracts';
/**
 * Ordering of ISO-8601 instants without the clock or `Date` (the domain is pure). Offsets and
 * any number of fraction digits are honoured, so "…T10:00:00Z" and "…T10:00:00.000+00:00" are equal.
 */
const ISO_INSTANT =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?(Z|[+-]\d{2}:?\d{2})$/i;

/** Milliseconds since the epoch, or null for a text that is not an ISO-8601 instant. */
export function epochMillis(iso: string): number | null {
  const m = ISO_INSTANT.exec(iso.trim());
  if (!m) return null;
  const [, y, mo, d, h, mi, s, fraction, zone] = m;
  const days = daysFromCivil(Number(y), Number(mo), Number(d));
  const millis = Number(`0.${fraction ?? '0'}`) * 1000;
  const local = (((days * 24 + Number(h)) * 60 + Number(mi)) * 60 + Number(s ?? '0')) * 1000 + millis;
  return local - offsetMinutes(zone ?? 'Z') * 60_000;
}

/** Newest first; an unreadable instant sorts after every readable one. */
export function compareInstantsDesc(a: string, b: string): number {
  const x = epochMillis(a);
  const y = epochMillis(b);
  if (x === y) return 0;
  if (x === null) return 1;
  if (y === null) return -1;
  return y - x;
}

function offsetMinutes(zone: string): number {
  if (zone.toUpperCase() === 'Z') return 0;
  const sign = zone.startsWith('-') ? -1 : 1;
  const digits = zone.slice(1).replace(':', '');
  return sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2)));
}
