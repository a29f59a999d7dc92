import { deciderSpec } from '@openq/testing/decider';
import { gateCycle, type GateCommand } from './gate-cycle';

const T0 = Date.UTC(2026, 0, 1);
const at = (s: number) => new Date(T0 + s * 1000);
const { given } = deciderSpec(gateCycle, at);
const sweep: GateCommand = { type: 'sweep', data: { staleAfterS: 900, parkAfterS: 7200 } };

const started = given([]).when(
  { type: 'start', data: { projectId: 'p1', taskId: 't1', gate: 'secops', sessionAuthorId: 'u' } },
  0,
).state;

describe('sweep', () => {
  it.each<[number, string | null]>([
    [0, null],
    [900, null],
    [901, 'gate.redispatch_requested'],
    [7200, 'gate.redispatch_requested'],
    [7201, 'gate.rescue_parked'],
    [90000, 'gate.rescue_parked'],
  ])('a running cycle idle for %i s → %s', (idle, expected) => {
    const { events } = given([], started).when(sweep, idle);
    expect(events.map((e) => e.type)).toEqual(expected ? [expected] : []);
  });

  it('parks an idle cycle with its age and a reason', () => {
    const { events, state } = given([], started).when(sweep, 7300);
    expect(events[0]?.data).toEqual({
      taskId: 't1',
      gate: 'secops',
      reason: 'idle',
      questionIds: [],
      ageSeconds: 7300,
      why: 'no agent activity for 7300 s (limit 7200 s)',
    });
    expect(state).toMatchObject({ status: 'parked', parkedReason: 'idle' });
  });

  it('asks for a re-dispatch with the age', () => {
    expect(given([], started).when(sweep, 1000).events[0]?.data).toEqual({
      taskId: 't1',
      gate: 'secops',
      ageSeconds: 1000,
    });
  });

  it('re-dispatches at most once per stale window', () => {
    const once = given([], started).when(sweep, 1000).state;
    expect(given([], once).when(sweep, 1300).events).toEqual([]);
    expect(given([], once).when(sweep, 1900).events).toEqual([]);
    expect(
      given([], once)
        .when(sweep, 1901)
        .events.map((e) => e.type),
    ).toEqual(['gate.redispatch_requested']);
  });

  it('activity refreshes the clock', () => {
    const active = given([], started).when({ type: 'activity' }, 800).state;
    expect(given([], active).when(sweep, 1600).events).toEqual([]);
    expect(
      given([], active)
        .when(sweep, 1701)
        .events.map((e) => e.type),
    ).toEqual(['gate.redispatch_requested']);
  });

  it('never re-dispatches or parks again a cycle parked on a user decision', () => {
    const asked = given([], started).when(
      {
        type: 'recordRound',
        data: {
          projectId: 'p1',
          taskId: 't1',
          gate: 'secops',
          sessionAuthorId: 'u',
          roundId: 'r1',
          verdicts: [{ subspecialty: 'a', veredito: 'needs_user_decision', pergunta: 'A?' }],
        },
      },
      10,
    ).state;
    expect(given([], asked).when(sweep, 1000).events).toEqual([]);
    const parked = given([], asked).when(
      { type: 'questionsLinked', data: { roundId: 'r1', questionIds: ['q1'] } },
      11,
    ).state;
    expect(given([], parked).when(sweep, 1000).events).toEqual([]);
    expect(given([], parked).when(sweep, 100000).events).toEqual([]);
  });

  it('leaves idle-parked, approved, blocked and absent cycles alone', () => {
    const idle = given([], started).when(sweep, 7201).state;
    expect(given([], idle).when(sweep, 20000).events).toEqual([]);
    const round = (veredito: 'approved' | 'blocked'): GateCommand => ({
      type: 'recordRound',
      data: {
        projectId: 'p1',
        taskId: 't1',
        gate: 'secops',
        sessionAuthorId: 'u',
        roundId: veredito,
        verdicts: [{ subspecialty: 'a', veredito }],
      },
    });
    expect(given([], given([], started).when(round('approved'), 5).state).when(sweep, 20000).events).toEqual(
      [],
    );
    expect(given([], given([], started).when(round('blocked'), 5).state).when(sweep, 20000).events).toEqual(
      [],
    );
    expect(given([]).when(sweep, 20000).events).toEqual([]);
  });

  it('a cycle resumed by an answer starts a fresh idle clock', () => {
    const asked = given([], started).when(
      {
        type: 'recordRound',
        data: {
          projectId: 'p1',
          taskId: 't1',
          gate: 'secops',
          sessionAuthorId: 'u',
          roundId: 'r1',
          verdicts: [{ subspecialty: 'a', veredito: 'needs_user_decision', pergunta: 'A?' }],
        },
      },
      10,
    ).state;
    const parked = given([], asked).when(
      { type: 'questionsLinked', data: { roundId: 'r1', questionIds: ['q1'] } },
      11,
    ).state;
    const resumed = given([], parked).when(
      { type: 'questionAnswered', data: { questionId: 'q1', decisionEventId: 'd1' } },
      50000,
    ).state;
    expect(resumed?.status).toBe('running');
    expect(given([], resumed).when(sweep, 50500).events).toEqual([]);
  });
});
