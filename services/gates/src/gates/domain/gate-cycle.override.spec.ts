import { deciderSpec } from '@openq/testing/decider';
import { gateCycle, waitingForYou, type GateCommand } from './gate-cycle';
import {
  askedForDecision,
  at,
  cycleStarted,
  parkedIdle,
  parkedOnDecision,
  questionAnswered,
  resumed,
  toDeclare,
} from '../__fixtures__/gate-events';

/** SPEC §11.1: a maintainer resumes a decision park without the answer (trigger `override`). */

const { given } = deciderSpec(gateCycle, at);

const apiChange = { subspecialty: 'api', summary: 'GET /:codigo 404', items: ['fix route'] };
const linked = (roundId: string, questionIds: string[]): GateCommand => ({
  type: 'questionsLinked',
  data: { roundId, questionIds },
});
const answer = (questionId: string, decisionEventId: string): GateCommand => ({
  type: 'questionAnswered',
  data: { questionId, decisionEventId },
});
const override = (by = 'maria', why = 'Customer confirmed 410 by phone', allowed = true): GateCommand => ({
  type: 'overrideResume',
  data: { by, why, allowed },
});

describe('override resume (§11.1)', () => {
  /** Parked on q1 and q2 with a change requested; q1 answered since. */
  const parkedOnTwo = [
    ...parkedOnDecision(['q1', 'q2'], {
      declare: [toDeclare('r1', 'rules', 'A?'), toDeclare('r1', 'ux', 'B?')],
      pendingChanges: [apiChange],
    }),
    questionAnswered(3, 'q1', 'd1'),
  ];
  const overridden = resumed(300, {
    trigger: 'override',
    questionIds: ['q2'],
    decisionEventIds: ['d1'],
    pendingChanges: [apiChange],
    by: 'maria',
    why: 'Customer confirmed 410 by phone',
  });

  it("§12.1 is refused 403 override_desligado while the project keeps the seeds' rule", () => {
    given(parkedOnTwo)
      .when(override('maria', 'no', false), 300)
      .then({
        statusCode: 403,
        reason: 'override_desligado',
      });
  });

  it('resumes a decision park, naming who and why, the questions left open and the decisions so far', () => {
    given(parkedOnTwo).when(override(), 300).then([overridden]);
  });

  it('leaves the cycle running, its counter as it was and no longer waiting for anyone', () => {
    const parked = given(parkedOnTwo);
    const { state } = parked.when(override(), 300);
    expect(state).toMatchObject({
      status: 'running',
      parkedReason: null,
      questionIds: [],
      correctionCount: parked.state?.correctionCount,
      lastActivityAt: at(300),
    });
    expect(state && waitingForYou(state, { userId: 'u-exec', answersFor: [] })).toBe(false);
  });

  it('a later answer to a question it left open is remembered but resumes nothing again', () => {
    const afterOverride = given([...parkedOnTwo, overridden]);
    afterOverride.when(answer('q2', 'd2'), 400).then([questionAnswered(400, 'q2', 'd2')]);
    expect(afterOverride.when(answer('q2', 'd2'), 400).state).toMatchObject({
      status: 'running',
      answeredQuestions: { q1: 'd1', q2: 'd2' },
    });
  });

  it('a second override of the same cycle is refused: it is not parked any more', () => {
    given([...parkedOnTwo, overridden])
      .when(override('owner-1', 'again'), 301)
      .then({ statusCode: 409, reason: 'gate_nao_estacionado' });
  });

  it('refuses 409 gate_nao_aguarda_decisao for an idle park (the plain resume is the way there)', () => {
    const idle = given([cycleStarted(0), parkedIdle(7201, 7201)]);
    expect(idle.state).toMatchObject({ status: 'parked', parkedReason: 'idle' });
    idle.when(override(), 7300).then({ statusCode: 409, reason: 'gate_nao_aguarda_decisao' });
  });

  it('refuses 409 gate_nao_estacionado for a running cycle, and 404 for one that does not exist', () => {
    given([cycleStarted(0)])
      .when(override(), 5)
      .then({ statusCode: 409, reason: 'gate_nao_estacionado' });
    given([]).when(override(), 0).then({ statusCode: 404, reason: 'gate_nao_encontrado' });
  });

  it('resumes a park whose questions are not linked yet; the late link then changes nothing', () => {
    const asking = [
      cycleStarted(0),
      ...askedForDecision(1, 'r1', { declare: [toDeclare('r1', 'rules', 'A?')] }),
    ];
    expect(given(asking).state).toMatchObject({ status: 'parked', parkedReason: 'user_decision' });
    const byOverride = resumed(50, {
      trigger: 'override',
      by: 'maria',
      why: 'Customer confirmed 410 by phone',
    });
    given(asking).when(override(), 50).then([byOverride]);
    given([...asking, byOverride])
      .when(linked('r1', ['q1']), 60)
      .then([]);
  });
});
