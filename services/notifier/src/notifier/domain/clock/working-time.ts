import { ClockReason, refusal, type Refusal } from '@openq/contracts';
import { deliverableWindows, isKnownTimeZone, minutesOf } from './business-time';

/** ISO weekday: 1 = Monday … 7 = Sunday. */
export type IsoWeekday = 1 | 2 | 3 | 4 | 5 | 6 | 7;

/**
 * When a person works and when they must not be disturbed, on their own wall clock. `start`/`end`
 * ('HH:MM', end may be '24:00') bound the working window of each working day; `quietHours` apply
 * every day and may straddle midnight ('22:00'–'07:00').
 */
export interface WorkingTime {
  timeZone: string;
  days: IsoWeekday[];
  start: string;
  end: string;
  quietHours?: { start: string; end: string };
}

/** Monday to Friday, 09:00–18:00 UTC, no quiet hours: anyone who set nothing. */
export const DEFAULT_WORKING_TIME: Readonly<WorkingTime> = Object.freeze({
  timeZone: 'UTC',
  days: [1, 2, 3, 4, 5] as IsoWeekday[],
  start: '09:00',
  end: '18:00',
});

/** A working window shorter than this is refused: business durations must end within reason. */
export const MIN_WORKING_WINDOW_MINUTES = 15;

const HHMM = /^([01]\d|2[0-3]):[0-5]\d$/;
const KEYS = new Set(['timeZone', 'days', 'start', 'end', 'quietHours']);

function invalid(field: string, message: string): Refusal {
  return refusal(400, ClockReason.invalidHours, message, { field });
}

/**
 * A person's working time from what they (or the defaults) set: each missing field takes its
 * default. Refusals: `horario_invalido` (with the field), `fuso_horario_desconhecido` (timeZone),
 * `silencio_cobre_o_expediente` (quiet hours leave no minute of the working window to notify in).
 */
export function parseWorkingTime(input: unknown): WorkingTime | Refusal {
  if (input === undefined || input === null)
    return { ...DEFAULT_WORKING_TIME, days: [...DEFAULT_WORKING_TIME.days] };
  if (typeof input !== 'object' || Array.isArray(input)) return invalid('', 'working time must be an object');
  const raw = input as Record<string, unknown>;
  const unknownKey = Object.keys(raw).find((key) => !KEYS.has(key));
  if (unknownKey !== undefined) return invalid(unknownKey, `unknown field ${unknownKey}`);

  const timeZone = raw['timeZone'] ?? DEFAULT_WORKING_TIME.timeZone;
  if (typeof timeZone !== 'string' || timeZone.length === 0 || timeZone.length > 64) {
    return invalid('timeZone', 'timeZone must be an IANA time zone name');
  }
  if (!isKnownTimeZone(timeZone)) {
    return refusal(400, ClockReason.unknownTimeZone, `unknown time zone ${timeZone}`, { field: 'timeZone' });
  }

  const days = raw['days'] ?? DEFAULT_WORKING_TIME.days;
  if (
    !Array.isArray(days) ||
    days.length === 0 ||
    !days.every((day) => Number.isInteger(day) && day >= 1 && day <= 7) ||
    new Set(days).size !== days.length
  ) {
    return invalid('days', 'days must list distinct ISO weekdays, 1 (Monday) to 7 (Sunday), at least one');
  }

  const start = raw['start'] ?? DEFAULT_WORKING_TIME.start;
  if (typeof start !== 'string' || !HHMM.test(start))
    return invalid('start', 'start must be HH:MM, 00:00 to 23:59');
  const end = raw['end'] ?? DEFAULT_WORKING_TIME.end;
  if (typeof end !== 'string' || !(HHMM.test(end) || end === '24:00')) {
    return invalid('end', 'end must be HH:MM, 00:01 to 24:00');
  }
  if (minutesOf(end) - minutesOf(start) < MIN_WORKING_WINDOW_MINUTES) {
    return invalid(
      'end',
      `end must come at least ${MIN_WORKING_WINDOW_MINUTES} minutes after start (same day)`,
    );
  }

  const workingTime: WorkingTime = {
    timeZone,
    days: [...(days as IsoWeekday[])].sort((a, b) => a - b),
    start,
    end,
  };
  const quiet = raw['quietHours'];
  if (quiet !== undefined && quiet !== null) {
    if (typeof quiet !== 'object' || Array.isArray(quiet))
      return invalid('quietHours', 'quietHours must be an object');
    const q = quiet as Record<string, unknown>;
    const extra = Object.keys(q).find((key) => key !== 'start' && key !== 'end');
    if (extra !== undefined) return invalid(`quietHours.${extra}`, `unknown field quietHours.${extra}`);
    for (const field of ['start', 'end'] as const) {
      const value = q[field];
      if (typeof value !== 'string' || !HHMM.test(value)) {
        return invalid(`quietHours.${field}`, `quietHours.${field} must be HH:MM, 00:00 to 23:59`);
      }
    }
    if (q['start'] === q['end'])
      return invalid('quietHours.end', 'quiet hours must not start and end at once');
    workingTime.quietHours = { start: q['start'] as string, end: q['end'] as string };
    if (deliverableWindows(workingTime).length === 0) {
      return refusal(
        400,
        ClockReason.quietCoversWorkingHours,
        'the quiet hours cover the whole working window: nobody could ever be told anything',
        { field: 'quietHours' },
      );
    }
  }
  return workingTime;
}
