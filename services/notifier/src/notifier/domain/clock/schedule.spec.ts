import { isRefusal } from '@openq/contracts';
import { parseClockPolicy, type ClockPolicy } from './clock-policy';
import {
  dueActions,
  escalationRecipients,
  overdueState,
  schedule,
  type ClockQuestion,
} from '../../clock-schedule';
import { parseWorkingTime, type WorkingTime } from './working-time';

function policy(input: unknown): ClockPolicy {
  const result = parseClockPolicy(input);
  if (isRefusal(result)) throw new Error(result.message);
  return result;
}

function workingTime(input: unknown): WorkingTime {
  const result = parseWorkingTime(input);
  if (isRefusal(result)) throw new Error(result.message);
  return result;
}

const question = (declaredAt: string, status: ClockQuestion['status'] = 'open'): ClockQuestion => ({
  questionId: 'q-1',
  declaredAt: new Date(declaredAt),
  authorId: 'ana',
  status,
});

const everyoneUtc = () => workingTime(undefined);
const brief = (actions: { key: string; at: Date; to: string[] }[]) =>
  actions.map((action) => `${action.at.toISOString()} ${action.key} → ${action.to.join(',')}`);

describe('schedule', () => {
  const standard = policy({
    dueAfter: { hours: 8 },
    reminders: [{ hours: 4 }, { hours: 12 }],
    escalateAfter: { hours: 16 },
  });

  it('lists reminders, the due notice and the escalation in time order, with stable keys', () => {
    // Monday 10:00 UTC, 09:00–18:00: +4 h = 14:00; +8 h = 18:00 (told Tuesday 09:00);
    // +12 h = Tuesday 13:00; +16 h = Tuesday 17:00.
    const actions = schedule(question('2026-11-30T10:00:00Z'), standard, everyoneUtc, new Set(), [
      'mara',
      'ana',
    ]);
    expect(brief(actions)).toEqual([
      '2026-11-30T14:00:00.000Z q-1:reminder:1 → ana',
      '2026-12-01T09:00:00.000Z q-1:due:1 → ana',
      '2026-12-01T13:00:00.000Z q-1:reminder:2 → ana',
      '2026-12-01T17:00:00.000Z q-1:escalation:1:mara → mara',
    ]);
    expect(actions.every((action) => action.dueAt.toISOString() === '2026-11-30T18:00:00.000Z')).toBe(true);
    expect(actions.map((action) => [action.kind, action.step])).toEqual([
      ['reminder', 1],
      ['due', 1],
      ['reminder', 2],
      ['escalation', 1],
    ]);
  });

  it('escalation tells who is late and carries no answer', () => {
    const [escalation] = schedule(question('2026-11-30T10:00:00Z'), standard, everyoneUtc, new Set(), [
      'mara',
    ]).filter((action) => action.kind === 'escalation');
    expect(escalation).toEqual({
      key: 'q-1:escalation:1:mara',
      questionId: 'q-1',
      kind: 'escalation',
      step: 1,
      at: new Date('2026-12-01T17:00:00Z'),
      to: ['mara'],
      dueAt: new Date('2026-11-30T18:00:00Z'),
      late: ['ana'],
    });
  });

  it('escalates to the named users when the policy names them, not to the maintainers', () => {
    const named = policy({
      dueAfter: { hours: 1 },
      escalateAfter: { hours: 2 },
      escalateTo: { users: ['rui', 'ana'] },
    });
    const keys = schedule(question('2026-11-30T10:00:00Z'), named, everyoneUtc, new Set(), ['mara']).map(
      (a) => a.key,
    );
    expect(keys).toEqual(['q-1:due:1', 'q-1:escalation:1:rui']);
    expect(escalationRecipients(named, ['mara'], 'ana')).toEqual(['rui']);
    expect(escalationRecipients(standard, ['zoe', 'mara', 'zoe', 'ana'], 'ana')).toEqual(['mara', 'zoe']);
  });

  it('has no escalation without escalateAfter, or when nobody but the author would hear it', () => {
    const noEscalation = policy({ dueAfter: { hours: 1 } });
    expect(
      schedule(question('2026-11-30T10:00:00Z'), noEscalation, everyoneUtc, new Set(), ['mara']),
    ).toHaveLength(1);
    const kinds = schedule(question('2026-11-30T10:00:00Z'), standard, everyoneUtc, new Set(), ['ana']).map(
      (action) => action.kind,
    );
    expect(kinds).not.toContain('escalation');
  });

  it('delivers each escalation in its recipient working time, never before the author was told', () => {
    const zones: Record<string, WorkingTime> = {
      ana: workingTime({ timeZone: 'Europe/Lisbon' }),
      raj: workingTime({ timeZone: 'Asia/Kolkata' }),
      sam: workingTime({ timeZone: 'America/New_York' }),
    };
    const dueAndEscalate = policy({ dueAfter: { hours: 8 }, escalateAfter: { hours: 8 } });
    // Ana (Lisbon, winter UTC+0) declares Monday 10:00: due at 18:00, told Tuesday 09:00 (09:00Z).
    const actions = schedule(
      question('2026-11-30T10:00:00Z'),
      dueAndEscalate,
      (user) => zones[user] ?? everyoneUtc(),
      new Set(),
      ['raj', 'sam'],
    );
    expect(brief(actions)).toEqual([
      '2026-12-01T09:00:00.000Z q-1:due:1 → ana',
      // Raj, 14:30 IST: inside his day.
      '2026-12-01T09:00:00.000Z q-1:escalation:1:raj → raj',
      // Sam, 04:00 EST: told at his opening, 09:00 EST.
      '2026-12-01T14:00:00.000Z q-1:escalation:1:sam → sam',
    ]);
  });

  it('runs across the New York spring-forward and reaches a Kolkata maintainer after her quiet night', () => {
    const zones: Record<string, WorkingTime> = {
      ana: workingTime({ timeZone: 'America/New_York' }),
      raj: workingTime({ timeZone: 'Asia/Kolkata', quietHours: { start: '21:00', end: '10:30' } }),
    };
    const p = policy({ dueAfter: { hours: 8 }, reminders: [{ hours: 4 }], escalateAfter: { hours: 12 } });
    // Friday 6 March 15:00 EST; clocks go forward on Sunday 8 March.
    const actions = schedule(question('2026-03-06T20:00:00Z'), p, (user) => zones[user]!, new Set(), ['raj']);
    expect(brief(actions)).toEqual([
      // 3 h on Friday, 1 h on Monday: 10:00 EDT.
      '2026-03-09T14:00:00.000Z q-1:reminder:1 → ana',
      // 3 h + 5 h: Monday 14:00 EDT.
      '2026-03-09T18:00:00.000Z q-1:due:1 → ana',
      // 3 h + 9 h: Monday 18:00 EDT = Tuesday 03:30 IST, a quiet night for Raj until 10:30 IST.
      '2026-03-10T05:00:00.000Z q-1:escalation:1:raj → raj',
    ]);
  });

  it('moves a notice out of the author quiet hours, to their end', () => {
    const lunch = workingTime({ quietHours: { start: '12:00', end: '13:00' } });
    const remindAtNoon = policy({ dueAfter: { hours: 6 }, reminders: [{ hours: 3 }] });
    const actions = schedule(question('2026-11-30T09:00:00Z'), remindAtNoon, () => lunch, new Set());
    expect(brief(actions)).toEqual([
      '2026-11-30T13:00:00.000Z q-1:reminder:1 → ana',
      '2026-11-30T15:00:00.000Z q-1:due:1 → ana',
    ]);
  });

  it('keeps reminders after the due time, in time order', () => {
    const after = policy({ dueAfter: { hours: 2 }, reminders: [{ hours: 1 }, { hours: 3 }, { hours: 5 }] });
    expect(brief(schedule(question('2026-11-30T09:00:00Z'), after, everyoneUtc, new Set()))).toEqual([
      '2026-11-30T10:00:00.000Z q-1:reminder:1 → ana',
      '2026-11-30T11:00:00.000Z q-1:due:1 → ana',
      '2026-11-30T12:00:00.000Z q-1:reminder:2 → ana',
      '2026-11-30T14:00:00.000Z q-1:reminder:3 → ana',
    ]);
  });

  it('owes nothing for an answered or withdrawn question', () => {
    for (const status of ['answered', 'withdrawn'] as const) {
      expect(
        schedule(question('2026-11-30T10:00:00Z', status), standard, everyoneUtc, new Set(), ['mara']),
      ).toEqual([]);
      expect(
        dueActions(
          new Date('2027-01-01T00:00:00Z'),
          question('2026-11-30T10:00:00Z', status),
          standard,
          everyoneUtc,
          new Set(),
          ['mara'],
        ),
      ).toEqual([]);
    }
  });

  it('leaves out what was already sent, and gives the same list for the same inputs', () => {
    const q = question('2026-11-30T10:00:00Z');
    const first = schedule(q, standard, everyoneUtc, new Set(), ['mara']);
    expect(schedule(q, standard, everyoneUtc, new Set(), ['mara'])).toEqual(first);
    const rest = schedule(q, standard, everyoneUtc, new Set(['q-1:reminder:1', 'q-1:due:1']), ['mara']);
    expect(rest.map((action) => action.key)).toEqual(['q-1:reminder:2', 'q-1:escalation:1:mara']);
  });
});

describe('dueActions', () => {
  const standard = policy({
    dueAfter: { hours: 8 },
    reminders: [{ hours: 4 }],
    escalateAfter: { hours: 10 },
  });
  const q = question('2026-11-30T10:00:00Z');
  const keysAt = (now: string, sent: string[] = []) =>
    dueActions(new Date(now), q, standard, everyoneUtc, new Set(sent), ['mara']).map((action) => action.key);

  it('gives what has come due at now, the boundary included, and not what was sent', () => {
    expect(keysAt('2026-11-30T13:59:59.999Z')).toEqual([]);
    expect(keysAt('2026-11-30T14:00:00Z')).toEqual(['q-1:reminder:1']);
    expect(keysAt('2026-11-30T20:00:00Z', ['q-1:reminder:1'])).toEqual([]);
    expect(keysAt('2026-12-01T09:00:00Z', ['q-1:reminder:1'])).toEqual(['q-1:due:1']);
    // A notifier down for a week catches up with everything not sent, in order.
    expect(keysAt('2026-12-08T00:00:00Z')).toEqual(['q-1:reminder:1', 'q-1:due:1', 'q-1:escalation:1:mara']);
  });
});

describe('overdueState', () => {
  const eightHours = policy({ dueAfter: { hours: 8 } });
  const utc = workingTime(undefined);
  const stateAt = (now: string, status: ClockQuestion['status'] = 'open') =>
    overdueState(question('2026-11-30T10:00:00Z', status), eightHours, utc, new Date(now));

  it('is on time, then due soon in the last quarter of business time, then overdue from dueAt', () => {
    const dueAt = new Date('2026-11-30T18:00:00Z');
    expect(stateAt('2026-11-30T10:00:00Z')).toEqual({ state: 'on_time', dueAt });
    expect(stateAt('2026-11-30T15:59:59Z')).toEqual({ state: 'on_time', dueAt });
    expect(stateAt('2026-11-30T16:00:00Z')).toEqual({ state: 'due_soon', dueAt });
    expect(stateAt('2026-11-30T17:59:59.999Z')).toEqual({ state: 'due_soon', dueAt });
    expect(stateAt('2026-11-30T18:00:00Z')).toEqual({ state: 'overdue', dueAt });
    expect(stateAt('2026-12-03T10:00:00Z')).toEqual({ state: 'overdue', dueAt });
  });

  it('counts only business time left: on Friday evening a Monday deadline is not due soon', () => {
    const friday = overdueState(
      question('2026-12-04T17:00:00Z'),
      eightHours,
      utc,
      new Date('2026-12-05T12:00:00Z'),
    );
    // 1 h on Friday, 7 h on Monday: due Monday 16:00; on Saturday 7 h of 8 are left.
    expect(friday).toEqual({ state: 'on_time', dueAt: new Date('2026-12-07T16:00:00Z') });
  });

  it('gives no marker to a closed question', () => {
    expect(stateAt('2026-12-03T10:00:00Z', 'answered')).toBeNull();
    expect(stateAt('2026-12-03T10:00:00Z', 'withdrawn')).toBeNull();
  });
});
