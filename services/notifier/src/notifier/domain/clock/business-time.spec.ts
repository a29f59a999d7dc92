import { isRefusal } from '@openq/contracts';
import {
  addBusinessMinutes,
  businessMsBetween,
  deliverableWindows,
  isoWeekday,
  nextDeliverable,
  offsetMs,
} from './business-time';
import { parseWorkingTime, type WorkingTime } from './working-time';

const HOUR = 3_600_000;
const at = (iso: string) => Date.parse(iso);
const iso = (ms: number) => new Date(ms).toISOString();

function workingTime(input: unknown): WorkingTime {
  const result = parseWorkingTime(input);
  if (isRefusal(result)) throw new Error(result.message);
  return result;
}

describe('offsets and weekdays', () => {
  it('reads the offset of a zone at an instant, DST included', () => {
    expect(offsetMs('Europe/Lisbon', at('2026-01-15T12:00:00Z'))).toBe(0);
    expect(offsetMs('Europe/Lisbon', at('2026-07-15T12:00:00Z'))).toBe(HOUR);
    expect(offsetMs('America/New_York', at('2026-03-08T06:59:59Z'))).toBe(-5 * HOUR);
    expect(offsetMs('America/New_York', at('2026-03-08T07:00:00Z'))).toBe(-4 * HOUR);
    expect(offsetMs('Asia/Kolkata', at('2026-07-15T12:00:00.250Z'))).toBe(5.5 * HOUR);
  });

  it('numbers local days as ISO weekdays', () => {
    expect(isoWeekday(0)).toBe(4); // 1970-01-01, a Thursday
    expect(isoWeekday(Math.floor(at('2026-11-30T00:00:00Z') / 86_400_000))).toBe(1); // a Monday
    expect(isoWeekday(-1)).toBe(3);
  });
});

describe('addBusinessMinutes', () => {
  const utc = workingTime(undefined);

  it('counts inside one working day and ends at the close when the count ends there', () => {
    expect(iso(addBusinessMinutes(at('2026-11-30T10:00:00Z'), 120, utc))).toBe('2026-11-30T12:00:00.000Z');
    expect(iso(addBusinessMinutes(at('2026-11-30T10:00:00Z'), 480, utc))).toBe('2026-11-30T18:00:00.000Z');
    expect(iso(addBusinessMinutes(at('2026-11-30T10:00:00Z'), 481, utc))).toBe('2026-12-01T09:01:00.000Z');
  });

  it('skips the night and the weekend', () => {
    // Friday 17:00 + 2 business hours: 1 on Friday, 1 on Monday.
    expect(iso(addBusinessMinutes(at('2026-12-04T17:00:00Z'), 120, utc))).toBe('2026-12-07T10:00:00.000Z');
    // Declared on a Saturday: the count starts on Monday at 09:00.
    expect(iso(addBusinessMinutes(at('2026-12-05T11:00:00Z'), 60, utc))).toBe('2026-12-07T10:00:00.000Z');
    // Declared at night: the count starts at the next opening.
    expect(iso(addBusinessMinutes(at('2026-12-01T23:30:00Z'), 30, utc))).toBe('2026-12-02T09:30:00.000Z');
    // A week of business time (5 × 9 h) from Monday 09:00 ends on Friday at 18:00.
    expect(iso(addBusinessMinutes(at('2026-11-30T09:00:00Z'), 45 * 60, utc))).toBe(
      '2026-12-04T18:00:00.000Z',
    );
  });

  it('keeps the seconds and milliseconds of the start', () => {
    expect(iso(addBusinessMinutes(at('2026-11-30T10:00:07.123Z'), 1, utc))).toBe('2026-11-30T10:01:07.123Z');
  });

  it('counts a Lisbon working day on the wall clock across the spring-forward weekend', () => {
    const lisbon = workingTime({ timeZone: 'Europe/Lisbon' });
    // Friday 27 March 17:00 WET (UTC+0) + 2 h: 1 h on Friday, then Monday 09:00 WEST (UTC+1) + 1 h.
    expect(iso(addBusinessMinutes(at('2026-03-27T17:00:00Z'), 120, lisbon))).toBe('2026-03-30T09:00:00.000Z');
  });

  it('counts the hour the spring-forward gap removes as not lived, and the repeated hour twice', () => {
    // Someone working Sundays 00:00–06:00 in Lisbon. On 29 March 2026 01:00 → 02:00 is skipped:
    // that window holds 5 real hours, so 6 business hours end the next Sunday at 01:00 WEST.
    const sundays = workingTime({ timeZone: 'Europe/Lisbon', days: [7], start: '00:00', end: '06:00' });
    expect(iso(addBusinessMinutes(at('2026-03-29T00:00:00Z'), 5 * 60, sundays))).toBe(
      '2026-03-29T05:00:00.000Z',
    );
    expect(iso(addBusinessMinutes(at('2026-03-29T00:00:00Z'), 6 * 60, sundays))).toBe(
      '2026-04-05T00:00:00.000Z',
    );
    // On 25 October 2026 02:00 WEST → 01:00 WET: that window holds 7 real hours.
    const fallBackSunday = at('2026-10-24T23:00:00Z'); // 00:00 WEST
    expect(iso(addBusinessMinutes(fallBackSunday, 7 * 60, sundays))).toBe('2026-10-25T06:00:00.000Z');
    expect(businessMsBetween(fallBackSunday, at('2026-10-25T06:00:00Z'), sundays)).toBe(7 * HOUR);
    expect(businessMsBetween(at('2026-03-29T00:00:00Z'), at('2026-03-29T05:00:00Z'), sundays)).toBe(5 * HOUR);
  });

  it('counts New York working days across the fall-back weekend', () => {
    const newYork = workingTime({ timeZone: 'America/New_York' });
    // Friday 30 October 17:00 EDT (21:00Z) + 2 h: Monday 2 November 10:00 EST (15:00Z).
    expect(iso(addBusinessMinutes(at('2026-10-30T21:00:00Z'), 120, newYork))).toBe(
      '2026-11-02T15:00:00.000Z',
    );
    // And across spring-forward: Friday 6 March 15:00 EST + 8 h → Monday 9 March 14:00 EDT.
    expect(iso(addBusinessMinutes(at('2026-03-06T20:00:00Z'), 480, newYork))).toBe(
      '2026-03-09T18:00:00.000Z',
    );
  });

  it('works at +05:30 in Asia/Kolkata', () => {
    const kolkata = workingTime({ timeZone: 'Asia/Kolkata' });
    // Monday 08:30 IST (03:00Z), before the opening: 1 h ends at 10:00 IST (04:30Z).
    expect(iso(addBusinessMinutes(at('2026-12-07T03:00:00Z'), 60, kolkata))).toBe('2026-12-07T04:30:00.000Z');
    // Friday 17:30 IST + 1 h: 30 min on Friday, 30 on Monday → Monday 09:30 IST (04:00Z).
    expect(iso(addBusinessMinutes(at('2026-12-04T12:00:00Z'), 60, kolkata))).toBe('2026-12-07T04:00:00.000Z');
  });

  it('counts quiet hours as business time: they only delay notices', () => {
    const lunch = workingTime({ quietHours: { start: '12:00', end: '13:00' } });
    expect(iso(addBusinessMinutes(at('2026-11-30T11:00:00Z'), 120, lunch))).toBe('2026-11-30T13:00:00.000Z');
  });

  it('ends even for the longest duration in the thinnest working time allowed', () => {
    // 1,000 business hours at 15 minutes a week (Sundays 10:00–10:15): 4,000 weeks.
    const thin = workingTime({ timeZone: 'Europe/Lisbon', days: [7], start: '10:00', end: '10:15' });
    const end = addBusinessMinutes(at('2026-11-30T00:00:00Z'), 60_000, thin);
    // The 4,000th Sunday from Sunday 6 December 2026.
    expect(iso(end).slice(0, 10)).toBe('2103-07-29');
    expect(businessMsBetween(at('2026-11-30T00:00:00Z'), end, thin)).toBe(60_000 * 60_000);
  });

  it('measures the business time between two instants', () => {
    expect(businessMsBetween(at('2026-12-04T17:00:00Z'), at('2026-12-07T10:00:00Z'), utc)).toBe(2 * HOUR);
    expect(businessMsBetween(at('2026-12-07T10:00:00Z'), at('2026-12-04T17:00:00Z'), utc)).toBe(0);
    expect(businessMsBetween(at('2026-12-05T10:00:00Z'), at('2026-12-06T10:00:00Z'), utc)).toBe(0);
  });
});

describe('nextDeliverable', () => {
  it('keeps an instant inside working time and outside quiet hours', () => {
    const utc = workingTime(undefined);
    expect(iso(nextDeliverable(at('2026-11-30T10:15:00Z'), utc))).toBe('2026-11-30T10:15:00.000Z');
  });

  it('moves an instant after the close, or on a weekend, to the next opening', () => {
    const utc = workingTime(undefined);
    expect(iso(nextDeliverable(at('2026-11-30T18:00:00Z'), utc))).toBe('2026-12-01T09:00:00.000Z');
    expect(iso(nextDeliverable(at('2026-12-05T12:00:00Z'), utc))).toBe('2026-12-07T09:00:00.000Z');
    const newYork = workingTime({ timeZone: 'America/New_York' });
    // Saturday 7 March; Monday 9 March opens at 09:00 EDT, after the spring-forward.
    expect(iso(nextDeliverable(at('2026-03-07T12:00:00Z'), newYork))).toBe('2026-03-09T13:00:00.000Z');
  });

  it('moves an instant in quiet hours to their end, never earlier', () => {
    const lunch = workingTime({ quietHours: { start: '12:00', end: '13:00' } });
    expect(iso(nextDeliverable(at('2026-11-30T12:30:00Z'), lunch))).toBe('2026-11-30T13:00:00.000Z');
    expect(iso(nextDeliverable(at('2026-11-30T12:00:00Z'), lunch))).toBe('2026-11-30T13:00:00.000Z');
    expect(iso(nextDeliverable(at('2026-11-30T11:59:59.999Z'), lunch))).toBe('2026-11-30T11:59:59.999Z');
  });

  it('handles quiet hours straddling midnight', () => {
    // Early shift 06:00–23:00 in Lisbon with quiet hours 22:00–07:00 (winter: UTC+0).
    const early = workingTime({
      timeZone: 'Europe/Lisbon',
      start: '06:00',
      end: '23:00',
      quietHours: { start: '22:00', end: '07:00' },
    });
    expect(deliverableWindows(early)).toEqual([[7 * 60, 22 * 60]]);
    // Monday 22:30 → Tuesday 07:00.
    expect(iso(nextDeliverable(at('2026-11-30T22:30:00Z'), early))).toBe('2026-12-01T07:00:00.000Z');
    // Tuesday 06:30, working but quiet → 07:00.
    expect(iso(nextDeliverable(at('2026-12-01T06:30:00Z'), early))).toBe('2026-12-01T07:00:00.000Z');
    // Friday 22:30 → Monday 07:00.
    expect(iso(nextDeliverable(at('2026-12-04T22:30:00Z'), early))).toBe('2026-12-07T07:00:00.000Z');
  });

  it('goes to the next opening when the quiet hours end after the close', () => {
    const evening = workingTime({ quietHours: { start: '17:00', end: '19:00' } });
    expect(iso(nextDeliverable(at('2026-11-30T17:30:00Z'), evening))).toBe('2026-12-01T09:00:00.000Z');
  });
});
