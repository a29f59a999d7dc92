import { deciderSpec } from '@openq/testing/decider';
import type { Verdict } from './consolidate';
import {
  CORRECTION_CYCLE_EXHAUSTED,
  gateCycle,
  countCorrections,
  nextAction,
  type GateCommand,
  type GateEvent,
  type GateName,
} from './gate-cycle';
import {
  askedForDecision,
  at,
  changesRequested,
  cycleStarted,
  roundRecorded,
  toDeclare,
} from '../__fixtures__/gate-events';

const { given } = deciderSpec(gateCycle, at);

const start = (gate: GateName = 'qa', maxCorrections?: number): GateCommand => ({
  type: 'start',
  data: { projectId: 'p1', taskId: 't1', gate, sessionAuthorId: 'u-exec', maxCorrections },
});

let rounds = 0;
const round = (
  verdicts: readonly Verdict[],
  extra: { roundId?: string; maxCorrections?: number; gate?: GateName } = {},
): GateCommand => ({
  type: 'recordRound',
  data: {
    projectId: 'p1',
    taskId: 't1',
    gate: extra.gate ?? 'qa',
    sessionAuthorId: 'u-qa',
    roundId: extra.roundId ?? `r${++rounds}`,
    maxCorrections: extra.maxCorrections,
    verdicts: verdicts.map((verdict, i) => ({
      subspecialty: `s${i}`,
      verdict,
      summary: `${verdict} from s${i}`,
      items: [],
      ...(verdict === 'needs_user_decision' ? { question: 'Which currency?', suggestion: 'BRL' } : {}),
    })),
  },
});

const verdictRecorded = (evs: GateEvent[]) => evs.find((e) => e.type === 'gate.verdict_recorded')?.data;

describe('correction counter', () => {
  it.each<[Verdict, number, number, { correctionCount: number; exhausted: boolean }]>([
    ['approved', 0, 3, { correctionCount: 0, exhausted: false }],
    ['approved', 3, 3, { correctionCount: 0, exhausted: false }],
    ['changes_requested', 0, 3, { correctionCount: 1, exhausted: false }],
    ['changes_requested', 2, 3, { correctionCount: 3, exhausted: false }],
    ['changes_requested', 3, 3, { correctionCount: 4, exhausted: true }],
    ['changes_requested', 0, 0, { correctionCount: 1, exhausted: true }],
    ['blocked', 2, 3, { correctionCount: 2, exhausted: false }],
    ['needs_user_decision', 2, 3, { correctionCount: 2, exhausted: false }],
  ])('%s with count %i of %i', (verdict, count, max, expected) => {
    expect(countCorrections(verdict, count, max)).toEqual(expected);
  });

  it.each<[GateName, Verdict, number, number, string]>([
    ['qa', 'approved', 0, 3, 'run_secops'],
    ['secops', 'approved', 0, 3, 'done'],
    ['qa', 'changes_requested', 3, 3, 'correct'],
    ['qa', 'changes_requested', 4, 3, 'blocked'],
    ['secops', 'changes_requested', 1, 3, 'correct'],
    ['qa', 'blocked', 0, 3, 'blocked'],
    ['qa', 'needs_user_decision', 1, 3, 'parked'],
  ])('nextAction(%s, %s, %i, %i) = %s', (gate, verdict, count, max, expected) => {
    expect(nextAction(gate, verdict, count, max)).toBe(expected);
  });

  it('blocks the task once the count goes above the ceiling, not at it', () => {
    const atCeiling = given([
      cycleStarted(0),
      ...changesRequested(1, 'c1', 1),
      ...changesRequested(2, 'c2', 2),
      ...changesRequested(3, 'c3', 3),
    ]);
    expect(atCeiling.state).toMatchObject({
      correctionCount: 3,
      status: 'changes_requested',
      blockedReason: null,
    });
    const fourth = atCeiling.when(round(['changes_requested'], { roundId: 'c4' }), 10);
    fourth.then(
      roundRecorded(10, 'c4', {
        verdict: 'changes_requested',
        correctionCount: 4,
        maxCorrections: 3,
        nextAction: 'blocked',
        blockedReason: CORRECTION_CYCLE_EXHAUSTED,
      }),
    );
    expect(fourth.state).toMatchObject({ status: 'blocked', blockedReason: CORRECTION_CYCLE_EXHAUSTED });
  });

  it('consumes exactly one cycle per round however many subspecialties asked for changes', () => {
    const decided = given([cycleStarted(0)]).when(
      round(['changes_requested', 'changes_requested', 'approved', 'changes_requested'], { roundId: 'c1' }),
      1,
    );
    decided.then(changesRequested(1, 'c1', 1));
    expect(decided.state?.correctionCount).toBe(1);
  });

  it('resets the counter on approval', () => {
    const decided = given([
      cycleStarted(0),
      ...changesRequested(1, 'c1', 1),
      ...changesRequested(2, 'c2', 2),
    ]).when(round(['approved'], { roundId: 'c3' }), 3);
    decided.then(
      roundRecorded(3, 'c3', { verdict: 'approved', correctionCount: 0, nextAction: 'run_secops' }),
    );
    expect(decided.state).toMatchObject({ correctionCount: 0, status: 'approved' });
  });

  it('never consumes a cycle for a subspecialty failure (blocked)', () => {
    const decided = given([cycleStarted(0), ...changesRequested(1, 'c1', 1)]).when(
      round(['blocked', 'changes_requested'], { roundId: 'c2' }),
      2,
    );
    decided.then(
      roundRecorded(2, 'c2', {
        verdict: 'blocked',
        correctionCount: 1,
        nextAction: 'blocked',
        blockedReason: 'blocked by subspecialty: s0',
      }),
    );
    expect(decided.state).toMatchObject({
      correctionCount: 1,
      status: 'blocked',
      blockedReason: 'blocked by subspecialty: s0',
    });
  });

  it('never touches the counter on needs_user_decision', () => {
    const decided = given([cycleStarted(0), ...changesRequested(1, 'c1', 1)]).when(
      round(['needs_user_decision', 'changes_requested'], { roundId: 'c2' }),
      2,
    );
    decided.then(
      askedForDecision(2, 'c2', {
        correctionCount: 1,
        declare: [toDeclare('c2', 's0', 'Which currency?', 'BRL')],
        pendingChanges: [{ subspecialty: 's1', summary: 'changes_requested from s1', items: [] }],
      }),
    );
    expect(decided.state).toMatchObject({
      correctionCount: 1,
      status: 'parked',
      parkedReason: 'user_decision',
    });
  });

  it('takes the ceiling from the verdict when it carries one, and keeps it', () => {
    const first = given([cycleStarted(0)]).when(
      round(['changes_requested'], { maxCorrections: 1, roundId: 'c1' }),
      1,
    );
    first.then(changesRequested(1, 'c1', 1, 1));
    expect(first.state).toMatchObject({ correctionCount: 1, maxCorrections: 1, status: 'changes_requested' });
    given([cycleStarted(0), ...changesRequested(1, 'c1', 1, 1)])
      .when(round(['changes_requested'], { roundId: 'c2' }), 5)
      .then(
        roundRecorded(5, 'c2', {
          verdict: 'changes_requested',
          correctionCount: 2,
          maxCorrections: 1,
          nextAction: 'blocked',
          blockedReason: CORRECTION_CYCLE_EXHAUSTED,
        }),
      );
  });

  it('uses the default ceiling of 3, the deployment default, or the start message, in that order of weakness', () => {
    const plain = given([]).when(start(), 0);
    plain.then([cycleStarted(0)]);
    expect(plain.state?.maxCorrections).toBe(3);
    const withDefault: GateCommand = {
      type: 'start',
      data: { projectId: 'p1', taskId: 't1', gate: 'qa', sessionAuthorId: 'u', defaultMaxCorrections: 5 },
    };
    const defaulted = given([]).when(withDefault, 0);
    defaulted.then([cycleStarted(0, { sessionAuthorId: 'u', maxCorrections: 5 })]);
    expect(defaulted.state?.maxCorrections).toBe(5);
    const both: GateCommand = {
      type: 'start',
      data: {
        projectId: 'p1',
        taskId: 't1',
        gate: 'qa',
        sessionAuthorId: 'u',
        maxCorrections: 2,
        defaultMaxCorrections: 5,
      },
    };
    const explicit = given([]).when(both, 0);
    explicit.then([cycleStarted(0, { sessionAuthorId: 'u', maxCorrections: 2 })]);
    expect(explicit.state?.maxCorrections).toBe(2);
  });

  it('with a ceiling of 0, the first change request blocks', () => {
    const decided = given([cycleStarted(0, { maxCorrections: 0 })]).when(
      round(['changes_requested'], { roundId: 'c1' }),
      1,
    );
    decided.then(
      roundRecorded(1, 'c1', {
        verdict: 'changes_requested',
        correctionCount: 1,
        maxCorrections: 0,
        nextAction: 'blocked',
        blockedReason: CORRECTION_CYCLE_EXHAUSTED,
      }),
    );
    expect(decided.state).toMatchObject({ status: 'blocked', blockedReason: CORRECTION_CYCLE_EXHAUSTED });
  });

  it.each<[Verdict[], GateName, string]>([
    [['approved'], 'qa', 'run_secops'],
    [['approved'], 'secops', 'done'],
    [['changes_requested'], 'qa', 'correct'],
    [['blocked'], 'secops', 'blocked'],
    [['needs_user_decision'], 'qa', 'parked'],
  ])('round %j on %s → nextAction %s', (verdicts, gate, expected) => {
    const { events } = given([cycleStarted(0, { gate })]).when(round(verdicts, { gate }), 5);
    expect(verdictRecorded(events)?.nextAction).toBe(expected);
  });

  it('ignores a round delivered again, even with other verdicts', () => {
    const once = given([cycleStarted(0), ...changesRequested(1, 'dup', 1)]);
    once.when(round(['changes_requested'], { roundId: 'dup' }), 9).then([]);
    once.when(round(['approved'], { roundId: 'dup' }), 9).then([]);
    expect(once.state?.correctionCount).toBe(1);
  });

  it('opens the cycle when the verdict arrives before its start', () => {
    const opening = given([]).when(round(['changes_requested'], { maxCorrections: 2, roundId: 'c1' }), 0);
    opening.then([
      cycleStarted(0, { sessionAuthorId: 'u-qa', maxCorrections: 2 }),
      ...changesRequested(0, 'c1', 1, 2),
    ]);
    expect(opening.state).toMatchObject({
      sessionAuthorId: 'u-qa',
      correctionCount: 1,
      maxCorrections: 2,
    });
  });

  it.each<[string, GateCommand]>([
    [
      'rodada_vazia',
      {
        type: 'recordRound',
        data: { projectId: 'p1', taskId: 't1', gate: 'qa', sessionAuthorId: 'u', roundId: 'x', verdicts: [] },
      },
    ],
    [
      'veredito_sem_pergunta',
      {
        type: 'recordRound',
        data: {
          projectId: 'p1',
          taskId: 't1',
          gate: 'qa',
          sessionAuthorId: 'u',
          roundId: 'x',
          verdicts: [{ subspecialty: 'a', verdict: 'needs_user_decision', question: '  ' }],
        },
      },
    ],
    [
      'veredito_invalido',
      {
        type: 'recordRound',
        data: {
          projectId: 'p1',
          taskId: 't1',
          gate: 'qa',
          sessionAuthorId: 'u',
          roundId: 'x',
          verdicts: [{ subspecialty: 'a', verdict: 'maybe' as Verdict }],
        },
      },
    ],
    ['max_correcoes_invalido', round(['approved'], { maxCorrections: -1 })],
    ['max_correcoes_invalido', start('qa', 1.5)],
  ])('refuses with 400 %s', (reason, command) => {
    given([cycleStarted(0)])
      .when(command, 1)
      .then({ refused: true, statusCode: 400, reason });
  });
});
