import { deciderSpec } from '@openq/testing/decider';
import {
  gateCycle,
  citationsToCheck,
  decide,
  gateView,
  isPublished,
  waitingForYou,
  type CitedQuestion,
  type GateCommand,
  type GateEvent,
} from './gate-cycle';
import type { SubspecialtyVerdict } from './record-round';

const T0 = Date.UTC(2026, 0, 1);
const at = (s: number) => new Date(T0 + s * 1000);
const { given, history } = deciderSpec(gateCycle, at);

function event<T extends GateEvent['type']>(
  events: GateEvent[],
  type: T,
): Extract<GateEvent, { type: T }> | undefined {
  return events.find((e) => e.type === type) as Extract<GateEvent, { type: T }> | undefined;
}

const start: GateCommand = {
  type: 'start',
  data: { projectId: 'p1', taskId: 't1', gate: 'qa', sessionAuthorId: 'u-exec' },
};
/** Every cited question exists and is open, unless the test says otherwise. */
const existingOpen = (verdicts: SubspecialtyVerdict[]): Record<string, CitedQuestion> =>
  Object.fromEntries(
    verdicts.flatMap((v) => (v.openQuestionId ? [[v.openQuestionId, { status: 'open' }]] : [])),
  );
const round = (
  roundId: string,
  verdicts: SubspecialtyVerdict[],
  citations: Record<string, CitedQuestion> = existingOpen(verdicts),
): GateCommand => ({
  type: 'recordRound',
  data: { projectId: 'p1', taskId: 't1', gate: 'qa', sessionAuthorId: 'u-qa', roundId, verdicts, citations },
});
const ask = (subspecialty: string, pergunta: string, sugestao?: string): SubspecialtyVerdict => ({
  subspecialty,
  veredito: 'needs_user_decision',
  pergunta,
  sugestao,
});
const askExisting = (subspecialty: string, openQuestionId: string): SubspecialtyVerdict => ({
  subspecialty,
  veredito: 'needs_user_decision',
  openQuestionId,
});
const change: SubspecialtyVerdict = {
  subspecialty: 'api',
  veredito: 'changes_requested',
  resumo: 'GET /:codigo 404',
  itens: ['fix route'],
};
const linked = (roundId: string, questionIds: string[], answered?: Record<string, string>): GateCommand => ({
  type: 'questionsLinked',
  data: { roundId, questionIds, answered },
});
const answer = (questionId: string, decisionEventId: string): GateCommand => ({
  type: 'questionAnswered',
  data: { questionId, decisionEventId },
});

describe('needs_user_decision', () => {
  it('parks without a cycle, asks the handler to record the questions and keeps the requested changes', () => {
    const { events, types, state } = given(history([start])).when(
      round('r1', [ask('rules', '  Is the code case-sensitive? ', 'No'), change]),
    );
    expect(types).toEqual(['gate.round_recorded', 'gate.verdict_recorded', 'gate.questions_requested']);
    expect(event(events, 'gate.verdict_recorded')?.data).toMatchObject({
      verdict: 'needs_user_decision',
      correctionCount: 0,
      nextAction: 'parked',
    });
    expect(event(events, 'gate.questions_requested')?.data.request).toEqual({
      roundId: 'r1',
      sessionAuthorId: 'u-exec',
      autor: 'qa-agent',
      origin: 'qa_verdict',
      afeta: { regras: [], historias: [], tarefas: ['t1'] },
      declare: [
        { key: 'r1:rules', subspecialty: 'rules', pergunta: 'Is the code case-sensitive?', sugestao: 'No' },
      ],
      link: [],
    });
    expect(state).toMatchObject({
      status: 'parked',
      parkedReason: 'user_decision',
      pendingChanges: [{ subspecialty: 'api', resumo: 'GET /:codigo 404', itens: ['fix route'] }],
    });
    expect(state && waitingForYou(state)).toBe(true);
  });

  it('links an existing openQuestionId instead of declaring a new question', () => {
    const { events } = given(history([start])).when(
      round('r1', [askExisting('rules', 'q-old'), askExisting('ux', 'q-old')]),
    );
    expect(event(events, 'gate.questions_requested')?.data.request).toMatchObject({
      declare: [],
      link: ['q-old'],
    });
  });

  it('publishes gate.rescue_parked once the questions are linked and still open', () => {
    const parked = given(history([start, round('r1', [ask('rules', 'A?'), ask('ux', 'B?')])]));
    const { events, types, state } = parked.when(linked('r1', ['q1', 'q2']));
    expect(types).toEqual(['gate.questions_linked', 'gate.rescue_parked']);
    expect(event(events, 'gate.rescue_parked')?.data).toEqual({
      taskId: 't1',
      gate: 'qa',
      reason: 'user_decision',
      questionIds: ['q1', 'q2'],
      why: "waiting for the user's decision on 2 open questions",
    });
    expect(state).toMatchObject({
      status: 'parked',
      questionIds: ['q1', 'q2'],
      pendingQuestionRequest: null,
    });
  });

  it('ignores a second link of the same round and a link for another round', () => {
    const parked = given(history([start, round('r1', [ask('rules', 'A?')]), linked('r1', ['q1'])]));
    expect(parked.when(linked('r1', ['q1'])).events).toEqual([]);
    expect(parked.when(linked('r0', ['q9'])).events).toEqual([]);
  });

  it('resumes only after both questions are answered, with every decision', () => {
    const parked = given(
      history([
        start,
        round('r1', [ask('rules', 'A?'), ask('ux', 'B?'), change]),
        linked('r1', ['q1', 'q2']),
      ]),
    );
    const first = parked.when(answer('q2', 'd2'));
    expect(first.types).toEqual(['gate.question_answered']);
    expect(first.state).toMatchObject({ status: 'parked', questionIds: ['q1'] });

    const second = given([], first.state).when(answer('q1', 'd1'), 200);
    expect(second.types).toEqual(['gate.question_answered', 'gate.resumed']);
    expect(event(second.events, 'gate.resumed')?.data).toEqual({
      taskId: 't1',
      gate: 'qa',
      trigger: 'answer',
      questionIds: ['q1', 'q2'],
      decisionEventIds: ['d1', 'd2'],
      pendingChanges: [{ subspecialty: 'api', resumo: 'GET /:codigo 404', itens: ['fix route'] }],
    });
    expect(second.state).toMatchObject({
      status: 'running',
      parkedReason: null,
      questionIds: [],
      correctionCount: 0,
      lastActivityAt: at(200),
    });
  });

  it('does not park when the answer arrived before the cycle parked (remembered answer)', () => {
    const asked = given(history([start, answer('q1', 'd1'), round('r1', [askExisting('rules', 'q1')])]));
    const { types, events, state } = asked.when(linked('r1', ['q1']));
    expect(types).toEqual(['gate.questions_linked', 'gate.resumed']);
    expect(event(events, 'gate.resumed')?.data).toMatchObject({
      trigger: 'answer',
      questionIds: ['q1'],
      decisionEventIds: ['d1'],
    });
    expect(state?.status).toBe('running');
  });

  it('does not park when the handler reports the question already answered', () => {
    const asked = given(history([start, round('r1', [ask('rules', 'A?')])]));
    const { types, state } = asked.when(linked('r1', ['q1'], { q1: 'd1' }));
    expect(types).toEqual(['gate.questions_linked', 'gate.resumed']);
    expect(state?.answeredQuestions).toEqual({ q1: 'd1' });
  });

  it('an answer while the round is not yet linked is remembered and does not resume early', () => {
    const asked = given(history([start, round('r1', [askExisting('rules', 'q1'), ask('ux', 'B?')])]));
    const early = asked.when(answer('q1', 'd1'));
    expect(early.types).toEqual(['gate.question_answered']);
    const { types, state } = given([], early.state).when(linked('r1', ['q1', 'q2']));
    expect(types).toEqual(['gate.questions_linked', 'gate.rescue_parked']);
    expect(state?.questionIds).toEqual(['q2']);
  });

  it('changes nothing for a duplicate answer', () => {
    const parked = given(
      history([
        start,
        round('r1', [ask('a', 'A?'), ask('b', 'B?')]),
        linked('r1', ['q1', 'q2']),
        answer('q1', 'd1'),
      ]),
    );
    expect(parked.when(answer('q1', 'd1')).events).toEqual([]);
  });

  it('ignores answers and activity for a cycle that does not exist', () => {
    expect(given([]).when(answer('q1', 'd1')).events).toEqual([]);
    expect(given([]).when({ type: 'activity' }).events).toEqual([]);
  });
});

describe('§11.1 a verdict cites only questions of the project', () => {
  const ghost = 'q-ghost';

  it('refuses a round citing an absent question: nothing parked, counter untouched, the engine told why', () => {
    const before = given(history([start, round('r0', [change])]));
    const { events, state } = before.when(
      round('r1', [askExisting('rules', 'q-real'), askExisting('ux', ghost), change], {
        'q-real': { status: 'open' },
        [ghost]: { status: 'absent' },
      }),
    );
    expect(events).toEqual([
      {
        type: 'gate.verdict_rejected',
        data: {
          taskId: 't1',
          gate: 'qa',
          roundId: 'r1',
          reason: 'pergunta_nao_encontrada',
          questionId: ghost,
        },
        occurredAt: at(100),
      },
    ]);
    expect(events.every(isPublished)).toBe(true);
    expect(state).toMatchObject({
      status: 'changes_requested',
      parkedReason: null,
      correctionCount: 1,
      questionIds: [],
      pendingQuestionRequest: null,
      lastActivityAt: at(100),
    });
    expect(state && waitingForYou(state)).toBe(false);
  });

  it('keeps a running cycle running, and the same round again changes nothing', () => {
    const rejected = given(history([start])).when(
      round('r1', [askExisting('rules', ghost)], { [ghost]: { status: 'absent' } }),
    );
    expect(rejected.state).toMatchObject({ status: 'running', parkedReason: null, correctionCount: 0 });
    expect(given([], rejected.state).when(round('r1', [askExisting('rules', ghost)], {})).events).toEqual([]);
    expect(citationsToCheck(rejected.state, 'r1', [askExisting('rules', ghost)])).toEqual([]);
  });

  it('a citation nobody looked up counts as absent', () => {
    const { types } = given(history([start])).when(round('r1', [askExisting('rules', 'q1')], {}));
    expect(types).toEqual(['gate.verdict_rejected']);
  });

  it('a rejected verdict before any start opens the cycle, running', () => {
    const { types, state } = given([]).when(round('r1', [askExisting('rules', ghost)], {}));
    expect(types).toEqual(['gate.cycle_started', 'gate.verdict_rejected']);
    expect(state).toMatchObject({ status: 'running', processedRoundIds: ['r1'], sessionAuthorId: 'u-qa' });
  });

  it('an existing question, open or answered, lets the round through', () => {
    const { types } = given(history([start])).when(
      round('r1', [askExisting('rules', 'q1'), askExisting('ux', 'q2')], {
        q1: { status: 'open' },
        q2: { status: 'answered', decisionEventId: 'd2' },
      }),
    );
    expect(types).toEqual(['gate.round_recorded', 'gate.verdict_recorded', 'gate.questions_requested']);
  });

  it('only a round that parks is checked: a blocked round with a ghost citation is recorded', () => {
    const blocked: SubspecialtyVerdict = { subspecialty: 'sec', veredito: 'blocked' };
    const verdicts = [askExisting('rules', ghost), blocked];
    expect(citationsToCheck(given(history([start])).state, 'r1', verdicts)).toEqual([]);
    const { types, state } = given(history([start])).when(round('r1', verdicts, {}));
    expect(types).toEqual(['gate.round_recorded', 'gate.verdict_recorded']);
    expect(state?.status).toBe('blocked');
  });

  it('asks the handler to look up each cited question of a new parking round once', () => {
    const verdicts = [
      askExisting('rules', 'q1'),
      askExisting('ux', 'q1'),
      askExisting('api', 'q2'),
      ask('x', 'A?'),
    ];
    expect(citationsToCheck(given(history([start])).state, 'r1', verdicts)).toEqual(['q1', 'q2']);
    expect(citationsToCheck(null, 'r1', verdicts)).toEqual(['q1', 'q2']);
    expect(citationsToCheck(given(history([start])).state, 'r1', [ask('x', 'A?')])).toEqual([]);
  });
});

describe('human resume', () => {
  const idleParked = () => {
    const running = given(history([start]));
    return running.when({ type: 'sweep', data: { staleAfterS: 900, parkAfterS: 7200 } }, 7201).state;
  };

  it('resumes an idle-parked cycle without touching the counter', () => {
    const parked = given(history([start, round('r1', [change])]));
    const restarted = parked.when(start, 10).state;
    const idle = given([], restarted).when(
      { type: 'sweep', data: { staleAfterS: 900, parkAfterS: 7200 } },
      8000,
    ).state;
    const { events, state } = given([], idle).when({ type: 'humanResume' }, 8100);
    expect(events).toEqual([
      {
        type: 'gate.resumed',
        data: {
          taskId: 't1',
          gate: 'qa',
          trigger: 'human',
          questionIds: [],
          decisionEventIds: [],
          pendingChanges: [],
        },
        occurredAt: at(8100),
      },
    ]);
    expect(state).toMatchObject({ status: 'running', correctionCount: 1, lastActivityAt: at(8100) });
  });

  it('refuses 409 gate_nao_estacionado when the cycle is not parked', () => {
    expect(decide({ type: 'humanResume' }, given(history([start])).state, at(5))).toMatchObject({
      statusCode: 409,
      reason: 'gate_nao_estacionado',
    });
  });

  it('refuses 409 gate_aguarda_decisao with the open questions when parked on a decision', () => {
    const parked = given(
      history([
        start,
        round('r1', [ask('a', 'A?'), ask('b', 'B?')]),
        linked('r1', ['q1', 'q2']),
        answer('q1', 'd1'),
      ]),
    );
    expect(decide({ type: 'humanResume' }, parked.state, at(50))).toMatchObject({
      statusCode: 409,
      reason: 'gate_aguarda_decisao',
      details: { questionIds: ['q2'] },
    });
  });

  it('refuses 404 for a cycle that does not exist', () => {
    expect(decide({ type: 'humanResume' }, null, at(0))).toMatchObject({
      statusCode: 404,
      reason: 'gate_nao_encontrado',
    });
  });

  it('a start on a parked cycle is only activity: it does not unpark', () => {
    const { types, state } = given([], idleParked()).when(start, 9000);
    expect(types).toEqual(['gate.activity_recorded']);
    expect(state).toMatchObject({ status: 'parked', parkedReason: 'idle', lastActivityAt: at(9000) });
  });
});

describe('cycle lifecycle', () => {
  it('a start after changes_requested runs the gate again and keeps the counter', () => {
    const s = given(history([start, round('r1', [change]), start])).state;
    expect(s).toMatchObject({ status: 'running', correctionCount: 1 });
  });

  it('publishes only the SPEC events', () => {
    const { events } = given(history([start])).when(round('r1', [ask('a', 'A?'), change]));
    expect(events.filter(isPublished).map((e) => e.type)).toEqual(['gate.verdict_recorded']);
  });

  it('renders the gates route item', () => {
    const parked = given(history([start, round('r1', [ask('a', 'A?')]), linked('r1', ['q1'])]));
    expect(parked.state && gateView(parked.state)).toEqual({
      gate: 'qa',
      state: 'parked',
      parkedReason: 'user_decision',
      questionIds: ['q1'],
      correctionCount: 0,
      maxCorrections: 3,
      waitingForYou: true,
      updatedAt: at(2).toISOString(),
    });
  });
});
