import { isRefusal } from '@openq/contracts';
import fc from 'fast-check';
import { addBusinessMinutes, businessMsBetween, MINUTE_MS, nextDeliverable } from './business-time';
import { durationMinutes, parseClockPolicy, type ClockPolicy } from './clock-policy';
import { dueActions, schedule, type ClockQuestion } from '../../clock-schedule';
import { parseWorkingTime, type WorkingTime } from './working-time';

// Zones with DST both ways, half-hour and 45-minute offsets, and a 30-minute DST (Lord Howe).
const ZONES = [
  'UTC',
  'Europe/Lisbon',
  'America/New_York',
  'Asia/Kolkata',
  'Asia/Kathmandu',
  'Australia/Lord_Howe',
  'America/St_Johns',
  'Pacific/Auckland',
];
const hhmm = (minutes: number) =>
  `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

function workingTimeIn(zone: fc.Arbitrary<string>): fc.Arbitrary<WorkingTime> {
  return fc
    .record({
      timeZone: zone,
      days: fc.uniqueArray(fc.integer({ min: 1, max: 7 }), { minLength: 1, maxLength: 7 }),
      start: fc.integer({ min: 0, max: 23 * 60 }),
      length: fc.integer({ min: 15, max: 24 * 60 }),
      quiet: fc.option(
        fc.record({ start: fc.integer({ min: 0, max: 1439 }), end: fc.integer({ min: 0, max: 1439 }) }),
      ),
    })
    .map(({ timeZone, days, start, length, quiet }) =>
      parseWorkingTime({
        timeZone,
        days,
        start: hhmm(start),
        end: start + length >= 1440 ? '24:00' : hhmm(start + length),
        ...(quiet ? { quietHours: { start: hhmm(quiet.start), end: hhmm(quiet.end) } } : {}),
      }),
    )
    .filter((result): result is WorkingTime => !isRefusal(result));
}
const workingTimeArb = workingTimeIn(fc.constantFrom(...ZONES));

const DAY = 86_400_000;
/** Offset changes of 2026 (instants), to put declarations and working windows right on them. */
const TRANSITIONS: [zone: string, instant: string][] = [
  ['Europe/Lisbon', '2026-03-29T01:00:00Z'],
  ['Europe/Lisbon', '2026-10-25T01:00:00Z'],
  ['America/New_York', '2026-03-08T07:00:00Z'],
  ['America/New_York', '2026-11-01T06:00:00Z'],
  ['America/St_Johns', '2026-03-08T05:30:00Z'],
  ['America/St_Johns', '2026-11-01T04:30:00Z'],
  ['Australia/Lord_Howe', '2026-04-04T15:00:00Z'],
  ['Australia/Lord_Howe', '2026-10-03T15:30:00Z'],
  ['Pacific/Auckland', '2026-04-04T14:00:00Z'],
  ['Pacific/Auckland', '2026-09-26T14:00:00Z'],
];
/** A working time in a zone with DST and an instant up to 3 days before (or 1 day after) a change. */
const nearTransitionArb: fc.Arbitrary<[WorkingTime, number]> = fc
  .constantFrom(...TRANSITIONS)
  .chain(([zone, instant]) =>
    fc.tuple(
      workingTimeIn(fc.constant(zone)),
      fc.integer({ min: Date.parse(instant) - 3 * DAY, max: Date.parse(instant) + DAY }),
    ),
  );

const policyArb: fc.Arbitrary<ClockPolicy> = fc
  .record({
    due: fc.integer({ min: 1, max: 40 * 60 }),
    reminders: fc.uniqueArray(fc.integer({ min: 1, max: 60 * 60 }), { maxLength: 5 }),
    escalateAfter: fc.option(fc.integer({ min: 0, max: 20 * 60 })),
    named: fc.option(fc.uniqueArray(fc.constantFrom('rui', 'raj', 'sam', 'ana'), { minLength: 1 })),
  })
  .map(({ due, reminders, escalateAfter, named }) => {
    const sorted = [...reminders].sort((a, b) => a - b).filter((minutes) => minutes !== due);
    const last = Math.max(due, ...sorted);
    return parseClockPolicy({
      dueAfter: { minutes: due },
      reminders: sorted.map((minutes) => ({ minutes })),
      ...(escalateAfter === null ? {} : { escalateAfter: { minutes: last + 1 + escalateAfter } }),
      ...(named ? { escalateTo: { users: named } } : {}),
    });
  })
  .filter((result): result is ClockPolicy => !isRefusal(result));

const instantArb = fc.integer({
  min: Date.parse('2024-01-01T00:00:00Z'),
  max: Date.parse('2030-12-31T00:00:00Z'),
});

const authorAndDeclarationArb: fc.Arbitrary<[WorkingTime, number]> = fc.oneof(
  fc.tuple(workingTimeArb, instantArb),
  nearTransitionArb,
);

const caseArb = fc
  .record({
    authorAndDeclaration: authorAndDeclarationArb,
    policy: policyArb,
    others: fc.record({ rui: workingTimeArb, raj: workingTimeArb, sam: workingTimeArb }),
    maintainers: fc.uniqueArray(fc.constantFrom('rui', 'raj', 'sam', 'ana'), { maxLength: 4 }),
  })
  .map(({ authorAndDeclaration: [author, declaredAt], ...rest }) => ({ ...rest, author, declaredAt }));

type Case = typeof caseArb extends fc.Arbitrary<infer T> ? T : never;

const questionOf = (c: Case): ClockQuestion => ({
  questionId: 'q-1',
  declaredAt: new Date(c.declaredAt),
  authorId: 'ana',
  status: 'open',
});
const timeOf = (c: Case) => (user: string) =>
  user === 'ana' ? c.author : (c.others[user as keyof Case['others']] ?? c.author);
const plan = (c: Case, sent: ReadonlySet<string> = new Set()) =>
  schedule(questionOf(c), c.policy, timeOf(c), sent, c.maintainers);

/** The wall clock of an instant, read straight from Intl (not through the code under test). */
const wallFormats = new Map<string, Intl.DateTimeFormat>();
function wall(timeZone: string, epochMs: number): { weekday: number; minute: number } {
  let format = wallFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      weekday: 'short',
      hour: 'numeric',
      minute: 'numeric',
    });
    wallFormats.set(timeZone, format);
  }
  const parts = format.formatToParts(epochMs);
  const get = (type: string) => parts.find((part) => part.type === type)?.value ?? '';
  const weekday = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'].indexOf(get('weekday')) + 1;
  return { weekday, minute: Number(get('hour')) * 60 + Number(get('minute')) };
}
const toMinutes = (value: string) => Number(value.slice(0, 2)) * 60 + Number(value.slice(3));
function isWorking(time: WorkingTime, epochMs: number): boolean {
  const { weekday, minute } = wall(time.timeZone, epochMs);
  return (
    (time.days as number[]).includes(weekday) &&
    minute >= toMinutes(time.start) &&
    minute < toMinutes(time.end)
  );
}
function isQuiet(time: WorkingTime, epochMs: number): boolean {
  if (!time.quietHours) return false;
  const { minute } = wall(time.timeZone, epochMs);
  const start = toMinutes(time.quietHours.start);
  const end = toMinutes(time.quietHours.end);
  return start < end ? minute >= start && minute < end : minute >= start || minute < end;
}

const RUNS = { numRuns: 150 };

describe('the clock, for any policy, working times and declaration', () => {
  it('orders actions by time, with unique keys, all after the declaration', () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        const actions = plan(c);
        const times = actions.map((action) => action.at.getTime());
        expect(times).toEqual([...times].sort((a, b) => a - b));
        expect(new Set(actions.map((action) => action.key)).size).toBe(actions.length);
        expect(times.every((time) => time > c.declaredAt)).toBe(true);
        expect(actions.filter((action) => action.kind === 'reminder')).toHaveLength(
          c.policy.reminders.length,
        );
      }),
      RUNS,
    );
  });

  it('tells each recipient only inside their working time and outside their quiet hours', () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        for (const action of plan(c)) {
          for (const recipient of action.to) {
            const time = timeOf(c)(recipient);
            expect({ key: action.key, working: isWorking(time, action.at.getTime()) }).toEqual({
              key: action.key,
              working: true,
            });
            expect({ key: action.key, quiet: isQuiet(time, action.at.getTime()) }).toEqual({
              key: action.key,
              quiet: false,
            });
          }
        }
      }),
      RUNS,
    );
  });

  it('never tells earlier than the business time computed, and never before the author is told', () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        const actions = plan(c);
        const after = (minutes: number) => addBusinessMinutes(c.declaredAt, minutes, c.author);
        for (const action of actions) {
          const computed =
            action.kind === 'reminder'
              ? after(durationMinutes(c.policy.reminders[action.step - 1]!))
              : action.kind === 'due'
                ? after(durationMinutes(c.policy.dueAfter))
                : after(durationMinutes(c.policy.escalateAfter!));
          expect(action.at.getTime()).toBeGreaterThanOrEqual(computed);
          expect(action.dueAt.getTime()).toBe(after(durationMinutes(c.policy.dueAfter)));
        }
        const toAuthor = actions
          .filter((action) => action.to.includes('ana'))
          .map((action) => action.at.getTime());
        for (const escalation of actions.filter((action) => action.kind === 'escalation')) {
          expect(escalation.late).toEqual(['ana']);
          expect(escalation.to).not.toContain('ana');
          expect(escalation.at.getTime()).toBeGreaterThanOrEqual(Math.max(...toAuthor));
        }
      }),
      RUNS,
    );
  });

  it('is idempotent: the same inputs give the same list, and a sent key only drops that action', () => {
    fc.assert(
      fc.property(caseArb, fc.infiniteStream(fc.boolean()), (c, coin) => {
        const all = plan(c);
        expect(plan(c)).toEqual(all);
        const sent = new Set(all.filter(() => coin.next().value).map((action) => action.key));
        expect(plan(c, sent)).toEqual(all.filter((action) => !sent.has(action.key)));
      }),
      RUNS,
    );
  });

  it('dueActions grows with now and is exactly the plan up to now', () => {
    fc.assert(
      fc.property(caseArb, fc.nat({ max: 30 * 86_400_000 }), fc.nat({ max: 30 * 86_400_000 }), (c, a, b) => {
        const [early, late] = [c.declaredAt + Math.min(a, b), c.declaredAt + Math.max(a, b)];
        const keys = (now: number) =>
          dueActions(new Date(now), questionOf(c), c.policy, timeOf(c), new Set(), c.maintainers).map(
            (action) => action.key,
          );
        const before = keys(early);
        const after = new Set(keys(late));
        expect(before.every((key) => after.has(key))).toBe(true);
        expect(before).toEqual(
          plan(c)
            .filter((action) => action.at.getTime() <= early)
            .map((action) => action.key),
        );
      }),
      RUNS,
    );
  });
});

describe('business time, for any working time', () => {
  it('adds up: a then b is a + b, and the time between is what was added', () => {
    fc.assert(
      fc.property(
        authorAndDeclarationArb,
        fc.integer({ min: 1, max: 3000 }),
        fc.integer({ min: 1, max: 3000 }),
        ([time, from], a, b) => {
          const afterA = addBusinessMinutes(from, a, time);
          expect(addBusinessMinutes(afterA, b, time)).toBe(addBusinessMinutes(from, a + b, time));
          expect(businessMsBetween(from, afterA, time)).toBe(a * MINUTE_MS);
          expect(afterA).toBeGreaterThan(from);
        },
      ),
      RUNS,
    );
  });

  it('agrees with counting working minutes one by one on the wall clock', () => {
    fc.assert(
      fc.property(
        authorAndDeclarationArb.map(([time, ms]) => [time, Math.floor(ms / MINUTE_MS) * MINUTE_MS] as const),
        fc.integer({ min: 1, max: 240 }),
        ([time, from], minutes) => {
          let counted = 0;
          let t = from;
          while (counted < minutes) {
            if (isWorking(time, t)) counted++;
            t += MINUTE_MS;
          }
          expect(addBusinessMinutes(from, minutes, time)).toBe(t);
        },
      ),
      { numRuns: 100 },
    );
  });

  it('delivers at the first working, non-quiet minute, never earlier', () => {
    fc.assert(
      fc.property(authorAndDeclarationArb, ([time, ms]) => {
        const from = Math.floor(ms / MINUTE_MS) * MINUTE_MS;
        const delivered = nextDeliverable(from, time);
        expect(delivered).toBeGreaterThanOrEqual(from);
        expect(isWorking(time, delivered) && !isQuiet(time, delivered)).toBe(true);
        for (let t = from; t < delivered && t < from + 2 * 86_400_000; t += 15 * MINUTE_MS) {
          expect(isWorking(time, t) && !isQuiet(time, t)).toBe(false);
        }
      }),
      { numRuns: 100 },
    );
  });
});

describe('the parsers, for any JSON a person or a client could send (what the routes pass on)', () => {
  // Near-valid shapes as well as noise: the fields the parsers read, with any JSON in them.
  const field = fc.oneof(
    fc.jsonValue({ maxDepth: 3 }),
    fc.record(
      { hours: fc.jsonValue({ maxDepth: 1 }), minutes: fc.jsonValue({ maxDepth: 1 }) },
      { requiredKeys: [] },
    ),
  );
  const policyLike = fc.oneof(
    fc.jsonValue({ maxDepth: 4 }),
    fc.record(
      {
        dueAfter: field,
        reminders: fc.oneof(fc.array(field, { maxLength: 12 }), field),
        escalateAfter: field,
        escalateTo: fc.oneof(
          fc.constant('maintainers'),
          fc.record({ users: fc.oneof(fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 52 }), field) }),
          field,
        ),
      },
      { requiredKeys: [] },
    ),
  );
  const workingTimeLike = fc.oneof(
    fc.jsonValue({ maxDepth: 4 }),
    fc.record(
      {
        timeZone: fc.oneof(fc.constantFrom('UTC', 'America/Sao_Paulo', 'Mars/Olympus', ''), field),
        days: fc.oneof(fc.array(fc.integer({ min: -1, max: 9 }), { maxLength: 9 }), field),
        start: fc.oneof(fc.constantFrom('09:00', '24:00', '9:00', '23:59'), field),
        end: fc.oneof(fc.constantFrom('18:00', '24:00', '00:00', '25:00'), field),
        quietHours: fc.oneof(fc.record({ start: field, end: field }), field),
      },
      { requiredKeys: [] },
    ),
  );

  it('never throw: a policy, or a refusal with a stable reason and the field', () => {
    fc.assert(
      fc.property(policyLike, (input) => {
        const parsed = parseClockPolicy(input);
        if (isRefusal(parsed)) {
          expect(parsed.statusCode).toBe(400);
          expect(parsed.reason).toMatch(/^[a-z_]+$/);
        } else {
          // What is accepted comes out whole and plans a schedule.
          expect(durationMinutes(parsed.dueAfter)).toBeGreaterThan(0);
        }
      }),
      { numRuns: 2000 },
    );
    fc.assert(
      fc.property(workingTimeLike, (input) => {
        const parsed = parseWorkingTime(input);
        if (isRefusal(parsed)) {
          expect(parsed.statusCode).toBe(400);
          expect(parsed.reason).toMatch(/^[a-z_]+$/);
        } else {
          expect(parsed.days.length).toBeGreaterThan(0);
        }
      }),
      { numRuns: 2000 },
    );
  });
});
