import { deciderSpec } from '@openq/testing/decider';
import { gateCycle, decide, waitingForYou, type GateCommand } from './gate-cycle';
import type { SubspecialtyVerdict } from './record-round';

/** SPEC §11.1: a maintainer resumes a decision park without the answer (trigger `override`). */

const T0 = Date.UTC(2026, 0, 1);
const at = (s: number) => new Date(T0 + s * 1000);
const { given, history } = deciderSpec(gateCycle, at);

const start: GateCommand = {
  type: 'start',
  data: { projectId: 'p1', taskId: 't1', gate: 'qa', sessionAuthorId: 'u-exec' },
};
const round = (roundId: string, verdicts: SubspecialtyVerdict[]): GateCommand => ({
  type: 'recordRound',
  data: { projectId: 'p1', taskId: 't1', gate: 'qa', sessionAuthorId: 'u-qa', roundId, verdicts },
});
const ask = (subspecialty: string, pergunta: string): SubspecialtyVerdict => ({
  subspecialty,
  veredito: 'needs_user_decision',
  pergunta,
});
const change: SubspecialtyVerdict = {
  subspecialty: 'api',
  veredito: 'changes_requested',
  resumo: 'GET /:codigo 404',
  itens: ['fix route'],
};
const linked = (roundId: string, questionIds: string[]): GateCommand => ({
  type: 'questionsLinked',
  data: { roundId, questionIds },
});
const answer = (questionId: string, decisionEventId: string): GateCommand => ({
  type: 'questionAnswered',
  data: { questionId, decisionEventId },
});
const override = (by = 'maria', why = 'Customer confirmed 410 by phone'): GateCommand => ({
  type: 'overrideResume',
  data: { by, why },
});
const sweep: GateCommand = { type: 'sweep', data: { staleAfterS: 900, parkAfterS: 7200 } };

describe('override resume (§11.1)', () => {
  const parkedOnTwo = () =>
    given(
      history([
        start,
        round('r1', [ask('rules', 'A?'), ask('ux', 'B?'), change]),
        linked('r1', ['q1', 'q2']),
        answer('q1', 'd1'),
      ]),
    );

  it('resumes a decision park, naming who and why, the questions left open and the decisions so far', () => {
    const parked = parkedOnTwo();
    const { events, state } = parked.when(override(), 300);
    expect(events).toEqual([
      {
        type: 'gate.resumed',
        data: {
          taskId: 't1',
          gate: 'qa',
          trigger: 'override',
          questionIds: ['q2'],
          decisionEventIds: ['d1'],
          pendingChanges: [{ subspecialty: 'api', resumo: 'GET /:codigo 404', itens: ['fix route'] }],
          by: 'maria',
          why: 'Customer confirmed 410 by phone',
        },
        occurredAt: at(300),
      },
    ]);
    expect(state).toMatchObject({
      status: 'running',
      parkedReason: null,
      questionIds: [],
      correctionCount: parked.state?.correctionCount,
      lastActivityAt: at(300),
    });
    expect(state && waitingForYou(state)).toBe(false);
  });

  it('a later answer to a question it left open is remembered but resumes nothing again', () => {
    const resumed = parkedOnTwo().when(override(), 300).state;
    const { types, state } = given([], resumed).when(answer('q2', 'd2'), 400);
    expect(types).toEqual(['gate.question_answered']);
    expect(state).toMatchObject({ status: 'running', answeredQuestions: { q1: 'd1', q2: 'd2' } });
  });

  it('a second override of the same cycle is refused: it is not parked any more', () => {
    const resumed = parkedOnTwo().when(override(), 300).state;
    expect(decide(override('owner-1', 'again'), resumed, at(301))).toMatchObject({
      statusCode: 409,
      reason: 'gate_nao_estacionado',
    });
  });

  it('refuses 409 gate_nao_aguarda_decisao for an idle park (the plain resume is the way there)', () => {
    const idle = given(history([start])).when(sweep, 7201).state;
    expect(idle).toMatchObject({ status: 'parked', parkedReason: 'idle' });
    expect(decide(override(), idle, at(7300))).toMatchObject({
      statusCode: 409,
      reason: 'gate_nao_aguarda_decisao',
    });
  });

  it('refuses 409 gate_nao_estacionado for a running cycle, and 404 for one that does not exist', () => {
    expect(decide(override(), given(history([start])).state, at(5))).toMatchObject({
      statusCode: 409,
      reason: 'gate_nao_estacionado',
    });
    expect(decide(override(), null, at(0))).toMatchObject({ statusCode: 404, reason: 'gate_nao_encontrado' });
  });

  it('resumes a park whose questions are not linked yet; the late link then changes nothing', () => {
    const asking = given(history([start, round('r1', [ask('rules', 'A?')])]));
    expect(asking.state).toMatchObject({ status: 'parked', parkedReason: 'user_decision' });
    const { events, state } = asking.when(override(), 50);
    expect(events[0]?.data).toMatchObject({ trigger: 'override', questionIds: [], decisionEventIds: [] });
    expect(given([], state).when(linked('r1', ['q1']), 60).events).toEqual([]);
  });
});
