import { daysFromCivil } from '@openq/contracts';
import type { WorkingTime } from './working-time';

/**
 * Business-time arithmetic in a person's time zone, with `Intl` only (no dependency, no clock):
 * every instant comes in as epoch milliseconds and goes out the same way.
 *
 * The model: an instant is WORKING for a person when their wall clock, in their time zone, reads
 * a working day and a minute in [start, end). Business time is the real time spent in working
 * instants, so a night, a weekend or a DST change counts exactly what the person's clock shows:
 * a working window that the spring-forward gap crosses is an hour shorter that day.
 * An instant is DELIVERABLE when it is working and outside the person's quiet hours.
 */

export const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
const MINUTES_PER_DAY = 1440;
/**
 * More days than any valid input needs: the longest duration (1,000 business hours) in the
 * thinnest working time (one 15-minute window a week) takes 4,000 weeks, 28,000 days.
 */
const MAX_DAYS_WALKED = 100 * 366;

/** A window of local minutes within one local day: [start, end), 0 ≤ start < end ≤ 1440. */
export type MinuteWindow = readonly [start: number, end: number];

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterOf(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** Whether `Intl` knows the time zone (an IANA name such as `Europe/Lisbon`). */
export function isKnownTimeZone(timeZone: string): boolean {
  try {
    formatterOf(timeZone);
    return true;
  } catch {
    return false;
  }
}

/** The wall clock of `timeZone` at `epochMs`, as milliseconds of a "local epoch" (wall time read as UTC). */
export function localWallMs(timeZone: string, epochMs: number): number {
  const seconds = Math.floor(epochMs / 1000) * 1000;
  const parts: Record<string, number> = {};
  for (const part of formatterOf(timeZone).formatToParts(seconds)) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  const days = daysFromCivil(parts['year'] ?? 0, parts['month'] ?? 1, parts['day'] ?? 1);
  const wall = days * DAY_MS + ((parts['hour'] ?? 0) * 60 + (parts['minute'] ?? 0)) * MINUTE_MS;
  return wall + (parts['second'] ?? 0) * 1000 + (epochMs - seconds);
}

function rawOffsetMs(timeZone: string, epochMs: number): number {
  return localWallMs(timeZone, epochMs) - epochMs;
}

/** A zone over one UTC day: its offset at 00:00 UTC and, when it changes that day, when and to what. */
interface ZoneDay {
  offset: number;
  change: { at: number; offset: number } | null;
}

const zoneDays = new Map<string, ZoneDay>();
/** Bounded: a long-running notifier touches a few days per zone and tick. */
const MAX_ZONE_DAYS = 100_000;

/**
 * The offsets of `timeZone` over the UTC day `utcDay`, computed once per process (they are facts
 * of the tz database). Offsets change on whole minutes, and never twice within a day in the tz
 * database's history since 1970; a change is found by bisection over the day's minutes.
 */
function zoneDay(timeZone: string, utcDay: number): ZoneDay {
  const cacheKey = `${timeZone} ${utcDay}`;
  const cached = zoneDays.get(cacheKey);
  if (cached) return cached;
  const dayStart = utcDay * DAY_MS;
  const offset = rawOffsetMs(timeZone, dayStart);
  const lastMinute = dayStart + DAY_MS - MINUTE_MS;
  const offsetAtEnd = rawOffsetMs(timeZone, lastMinute);
  let change: ZoneDay['change'] = null;
  if (offsetAtEnd !== offset) {
    let low = dayStart; // the day's first offset here
    let high = lastMinute; // the new one here
    while (high - low > MINUTE_MS) {
      const middle = low + Math.floor((high - low) / 2 / MINUTE_MS) * MINUTE_MS;
      if (rawOffsetMs(timeZone, middle) === offset) low = middle;
      else high = middle;
    }
    change = { at: high, offset: offsetAtEnd };
  }
  if (zoneDays.size >= MAX_ZONE_DAYS) zoneDays.clear();
  const day = { offset, change };
  zoneDays.set(cacheKey, day);
  return day;
}

/** The offset (wall clock minus UTC, in ms) of `timeZone` at `epochMs`. */
export function offsetMs(timeZone: string, epochMs: number): number {
  const day = zoneDay(timeZone, Math.floor(epochMs / DAY_MS));
  return day.change && epochMs >= day.change.at ? day.change.offset : day.offset;
}

/** ISO weekday (1 = Monday … 7 = Sunday) of a local day counted from 1970-01-01 (a Thursday). */
export function isoWeekday(localDay: number): number {
  return ((((localDay + 3) % 7) + 7) % 7) + 1;
}

/**
 * The end of the stretch, from `from` on, where the offset of `timeZone` stays `offsetMs(from)`
 * (at most to the end of the UTC day), and that offset.
 */
function constantOffsetFrom(timeZone: string, from: number): { offset: number; until: number } {
  const utcDay = Math.floor(from / DAY_MS);
  const day = zoneDay(timeZone, utcDay);
  const dayEnd = (utcDay + 1) * DAY_MS;
  if (!day.change) return { offset: day.offset, until: dayEnd };
  return from < day.change.at
    ? { offset: day.offset, until: day.change.at }
    : { offset: day.change.offset, until: dayEnd };
}

/**
 * The stretches of real time, from `from` on and in order, during which the wall clock of
 * `timeZone` reads a minute inside `windowsOf(localDay)`. Between two offset changes the wall
 * clock is the instant plus a constant, so each window maps to real time exactly; a DST gap
 * drops the wall minutes it skips, a repeated hour is counted twice (it is lived twice).
 */
export function* stretches(
  timeZone: string,
  from: number,
  windowsOf: (localDay: number) => readonly MinuteWindow[],
): Generator<readonly [number, number]> {
  let segmentStart = from;
  const lastDay = Math.floor(from / DAY_MS) + MAX_DAYS_WALKED;
  while (Math.floor(segmentStart / DAY_MS) < lastDay) {
    const { offset, until: segmentEnd } = constantOffsetFrom(timeZone, segmentStart);
    const wallStart = segmentStart + offset;
    const wallEnd = segmentEnd + offset;
    for (let day = Math.floor(wallStart / DAY_MS); day * DAY_MS < wallEnd; day++) {
      for (const [start, end] of windowsOf(day)) {
        const a = Math.max(day * DAY_MS + start * MINUTE_MS, wallStart);
        const b = Math.min(day * DAY_MS + end * MINUTE_MS, wallEnd);
        if (a < b) yield [a - offset, b - offset];
      }
    }
    segmentStart = segmentEnd;
  }
  throw new Error(`no working time within ${MAX_DAYS_WALKED} days: the working time was not validated`);
}

/** Minutes of the day 'HH:MM' (00:00 … 24:00). */
export function minutesOf(hhmm: string): number {
  const [hours, minutes] = hhmm.split(':').map(Number);
  return (hours ?? 0) * 60 + (minutes ?? 0);
}

/** The quiet minutes of any local day: one window, or two when they straddle midnight. */
function quietWindows(workingTime: WorkingTime): MinuteWindow[] {
  if (!workingTime.quietHours) return [];
  const start = minutesOf(workingTime.quietHours.start);
  const end = minutesOf(workingTime.quietHours.end);
  return start < end
    ? [[start, end]]
    : [
        [0, end],
        [start, MINUTES_PER_DAY],
      ];
}

/** The working window of a day minus the quiet windows: what is left, in order. */
export function deliverableWindows(workingTime: WorkingTime): MinuteWindow[] {
  let left: MinuteWindow[] = [[minutesOf(workingTime.start), minutesOf(workingTime.end)]];
  for (const [quietStart, quietEnd] of quietWindows(workingTime)) {
    left = left.flatMap(([start, end]): MinuteWindow[] =>
      [[start, Math.min(end, quietStart)] as const, [Math.max(start, quietEnd), end] as const].filter(
        ([a, b]) => a < b,
      ),
    );
  }
  return left;
}

function onWorkingDays(workingTime: WorkingTime, windows: readonly MinuteWindow[]) {
  const days = new Set<number>(workingTime.days);
  return (localDay: number): readonly MinuteWindow[] => (days.has(isoWeekday(localDay)) ? windows : []);
}

/**
 * The instant at which `minutes` business minutes have elapsed since `from`: the earliest one, so
 * a count that ends exactly at the close of a working day ends at the close (18:00), not at the
 * next opening. Quiet hours are working time: they only delay notices, never the count.
 */
export function addBusinessMinutes(from: number, minutes: number, workingTime: WorkingTime): number {
  let remaining = minutes * MINUTE_MS;
  if (remaining <= 0) return from;
  const working = onWorkingDays(workingTime, [[minutesOf(workingTime.start), minutesOf(workingTime.end)]]);
  for (const [a, b] of stretches(workingTime.timeZone, from, working)) {
    if (remaining <= b - a) return a + remaining;
    remaining -= b - a;
  }
  /* istanbul ignore next -- stretches() throws before it ends */
  throw new Error('unreachable');
}

/** Business milliseconds between `from` and `to` (0 when `to` is not after `from`). */
export function businessMsBetween(from: number, to: number, workingTime: WorkingTime): number {
  if (to <= from) return 0;
  const working = onWorkingDays(workingTime, [[minutesOf(workingTime.start), minutesOf(workingTime.end)]]);
  let total = 0;
  for (const [a, b] of stretches(workingTime.timeZone, from, working)) {
    if (a >= to) break;
    total += Math.min(b, to) - a;
    if (b >= to) break;
  }
  return total;
}

/**
 * The earliest instant not before `at` when the person may be told something: inside their
 * working time and outside their quiet hours. An instant in quiet hours moves to the end of the
 * quiet hours (or, when that is after the close, to the next opening); it never moves earlier.
 */
export function nextDeliverable(at: number, workingTime: WorkingTime): number {
  const deliverable = onWorkingDays(workingTime, deliverableWindows(workingTime));
  for (const [a] of stretches(workingTime.timeZone, at, deliverable)) return a;
  /* istanbul ignore next -- stretches() throws before it ends */
  throw new Error('unreachable');
}
