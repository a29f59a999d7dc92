import { isRefusal } from '@openq/contracts';
import { deciderSpec } from '@openq/testing/decider';
import { schedule } from '../clock-schedule';
import { parseClockPolicy, parseWorkingTime, type ClockPolicy, type WorkingTime } from './clock';
import { clockNotices, clockTickPlanOf, type ClockNoticeEvent, type ClockTick } from './clock-notices';

function policy(input: unknown): ClockPolicy {
  const result = parseClockPolicy(input);
  if (isRefusal(result)) throw new Error(result.message);
  return result;
}

const utc = parseWorkingTime(undefined) as WorkingTime;
const workingTimeOf = () => utc;
const standard = policy({
  dueAfter: { hours: 8 },
  reminders: [{ hours: 4 }, { hours: 12 }],
  escalateAfter: { hours: 16 },
});

// Monday 10:00 UTC: reminder 1 Monday 14:00, due Tuesday 09:00, reminder 2 Tuesday 13:00,
// escalation to mara Tuesday 17:00 (schedule.spec.ts).
const question = {
  questionId: 'q-1',
  sessionAuthorId: 'ana',
  askedBy: 'agent-1',
  question: 'Which currency?',
  suggestion: 'BRL',
  affects: { rules: [], stories: [], tasks: ['T-101'] },
  origin: 'agent',
  declaredAt: new Date('2026-11-30T10:00:00Z'),
};

const tick = (given: ReadonlySet<string> = new Set()): ClockTick => ({
  type: 'tick',
  question,
  owed: schedule(
    { questionId: 'q-1', declaredAt: question.declaredAt, authorId: 'ana', status: 'open' },
    standard,
    workingTimeOf,
    given,
    ['mara'],
  ),
  workingTimeOf,
});

const { given } = deciderSpec(clockNotices, () => new Date('2026-11-30T10:00:00Z'));
const brief = (events: readonly ClockNoticeEvent[]) =>
  events.map((e) =>
    e.type === 'clock.next_planned'
      ? `next ${e.data.next?.toISOString() ?? 'none'}`
      : `${e.data.notice.key}${e.data.notice.coalesced ? ' (coalesced)' : ''}${e.data.told ? ' told' : ''}`,
  );

describe('the clock notices of a question (issue #17)', () => {
  it('gives nothing before the first notice is due, and plans its instant', () => {
    const before = given([]).when(tick(), new Date('2026-11-30T13:59:00Z'));
    expect(brief(before.events)).toEqual(['next 2026-11-30T14:00:00.000Z']);
    expect(before.state).toEqual({ given: new Set(), next: new Date('2026-11-30T14:00:00Z') });
  });

  it('after an outage, every notice owed is given and the person is told only the latest', () => {
    const late = given([]).when(tick(), new Date('2026-12-01T14:00:00Z'));
    expect(brief(late.events)).toEqual([
      'q-1:reminder:1 (coalesced)',
      'q-1:due:1 (coalesced)',
      'q-1:reminder:2 told',
      'next 2026-12-01T17:00:00.000Z',
    ]);
    const plan = clockTickPlanOf(late.events);
    expect(plan.told.map((t) => [t.key, t.planned.kind, t.planned.clock.step])).toEqual([
      ['q-1:reminder:2', 'question_reminder', 2],
    ]);
    expect(plan.told[0]?.planned.clock).toMatchObject({
      dueAt: '2026-11-30T18:00:00.000Z',
      timeZone: 'UTC',
    });
    expect(late.state.given).toEqual(new Set(['q-1:reminder:1', 'q-1:due:1', 'q-1:reminder:2']));
  });

  it('a notice given once is never given again; the escalation tells who is late', () => {
    const first = given([]).when(tick(), new Date('2026-12-01T14:00:00Z'));
    const after = given(first.events);
    const escalated = after.when(tick(after.state.given), new Date('2026-12-01T17:00:00Z'));
    expect(brief(escalated.events)).toEqual(['q-1:escalation:1:mara told', 'next none']);
    const [told] = clockTickPlanOf(escalated.events).told;
    expect(told?.planned).toMatchObject({
      recipientUserId: 'mara',
      kind: 'question_escalated',
      clock: { late: ['ana'], step: 1 },
    });
    // The same tick again: everything owed by then is given already.
    given([...first.events, ...escalated.events])
      .when(tick(), new Date('2026-12-01T17:00:00Z'))
      .then([
        {
          type: 'clock.next_planned',
          data: { questionId: 'q-1', next: null },
          occurredAt: new Date('2026-12-01T17:00:00Z'),
        },
      ]);
  });
});
