import { deciderSpec } from '@openq/testing/decider';
import { gateCycle, type GateCommand, type GateEvent } from './gate-cycle';
import {
  activityRecorded,
  askedForDecision,
  at,
  cycleStarted,
  parkedIdle,
  questionAnswered,
  questionsLinked,
  redispatchRequested,
  rescueParkedOnDecision,
  resumed,
  roundRecorded,
  toDeclare,
} from '../__fixtures__/gate-events';

const { given } = deciderSpec(gateCycle, at);
const sweep: GateCommand = { type: 'sweep', data: { staleAfterS: 900, parkAfterS: 7200 } };

const secops = { gate: 'secops' as const };
const started = [cycleStarted(0, { ...secops, sessionAuthorId: 'u' })];
/** A secops round at 10 parked on question A?, linked to q1 at 11. */
const asked = [
  ...started,
  ...askedForDecision(10, 'r1', { ...secops, sessionAuthorId: 'u', declare: [toDeclare('r1', 'a', 'A?')] }),
];
const parked = [
  ...asked,
  questionsLinked(11, 'r1', ['q1'], secops),
  rescueParkedOnDecision(11, ['q1'], secops),
];

describe('sweep', () => {
  it.each<[number, GateEvent[]]>([
    [0, []],
    [900, []],
    [901, [redispatchRequested(901, 901, secops)]],
    [7200, [redispatchRequested(7200, 7200, secops)]],
    [7201, [parkedIdle(7201, 7201, 7200, secops)]],
    [90000, [parkedIdle(90000, 90000, 7200, secops)]],
  ])('a running cycle idle for %i s → %j', (idle, expected) => {
    given(started).when(sweep, idle).then(expected);
  });

  it('parks an idle cycle with its age and a reason', () => {
    const sweeping = given(started).when(sweep, 7300);
    sweeping.then([
      {
        type: 'gate.rescue_parked',
        data: {
          taskId: 't1',
          gate: 'secops',
          reason: 'idle',
          questionIds: [],
          ageSeconds: 7300,
          why: 'no agent activity for 7300 s (limit 7200 s)',
        },
        occurredAt: at(7300),
      },
    ]);
    expect(sweeping.state).toMatchObject({ status: 'parked', parkedReason: 'idle' });
  });

  it('asks for a re-dispatch with the age', () => {
    given(started)
      .when(sweep, 1000)
      .then([
        {
          type: 'gate.redispatch_requested',
          data: { taskId: 't1', gate: 'secops', ageSeconds: 1000 },
          occurredAt: at(1000),
        },
      ]);
  });

  it('re-dispatches at most once per stale window', () => {
    const once = given([...started, redispatchRequested(1000, 1000, secops)]);
    once.when(sweep, 1300).then([]);
    once.when(sweep, 1900).then([]);
    once.when(sweep, 1901).then([redispatchRequested(1901, 1901, secops)]);
  });

  it('activity refreshes the clock', () => {
    const active = given([...started, activityRecorded(800, secops)]);
    active.when(sweep, 1600).then([]);
    active.when(sweep, 1701).then([redispatchRequested(1701, 901, secops)]);
  });

  it('never re-dispatches or parks again a cycle parked on a user decision', () => {
    given(asked).when(sweep, 1000).then([]);
    given(parked).when(sweep, 1000).then([]);
    given(parked).when(sweep, 100000).then([]);
  });

  it('leaves idle-parked, approved, blocked and absent cycles alone', () => {
    given([...started, parkedIdle(7201, 7201, 7200, secops)])
      .when(sweep, 20000)
      .then([]);
    const approved = roundRecorded(5, 'approved', { ...secops, verdict: 'approved', nextAction: 'done' });
    given([...started, ...approved])
      .when(sweep, 20000)
      .then([]);
    const blocked = roundRecorded(5, 'blocked', {
      ...secops,
      verdict: 'blocked',
      nextAction: 'blocked',
      blockedReason: 'blocked by subspecialty: a',
    });
    given([...started, ...blocked])
      .when(sweep, 20000)
      .then([]);
    given([]).when(sweep, 20000).then([]);
  });

  it('a cycle resumed by an answer starts a fresh idle clock', () => {
    const answered = [
      ...parked,
      questionAnswered(50000, 'q1', 'd1', secops),
      resumed(50000, { ...secops, trigger: 'answer', questionIds: ['q1'], decisionEventIds: ['d1'] }),
    ];
    given(parked)
      .when({ type: 'questionAnswered', data: { questionId: 'q1', decisionEventId: 'd1' } }, 50000)
      .then(answered.slice(parked.length));
    expect(given(answered).state?.status).toBe('running');
    given(answered).when(sweep, 50500).then([]);
  });
});
