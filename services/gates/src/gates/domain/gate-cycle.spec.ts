import { deciderSpec } from '@openq/testing/decider';
import {
  gateCycle,
  citationsToCheck,
  gateView,
  isPublished,
  waitingForYou,
  type CitedQuestion,
  type GateCommand,
} from './gate-cycle';
import type { SubspecialtyVerdict } from './record-round';
import {
  activityRecorded,
  askedForDecision,
  at,
  changesRequested,
  cycleStarted,
  parkedIdle,
  parkedOnDecision,
  questionAnswered,
  questionsLinked,
  rescueParkedOnDecision,
  resumed,
  roundRecorded,
  toDeclare,
  verdictRejected,
} from '../__fixtures__/gate-events';

const { given } = deciderSpec(gateCycle, at);

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
const ask = (subspecialty: string, question: string, suggestion?: string): SubspecialtyVerdict => ({
  subspecialty,
  verdict: 'needs_user_decision',
  question,
  suggestion,
});
const askExisting = (subspecialty: string, openQuestionId: string): SubspecialtyVerdict => ({
  subspecialty,
  verdict: 'needs_user_decision',
  openQuestionId,
});
const change: SubspecialtyVerdict = {
  subspecialty: 'api',
  verdict: 'changes_requested',
  summary: 'GET /:codigo 404',
  items: ['fix route'],
};
const apiChange = { subspecialty: 'api', summary: 'GET /:codigo 404', items: ['fix route'] };
const linked = (roundId: string, questionIds: string[], answered?: Record<string, string>): GateCommand => ({
  type: 'questionsLinked',
  data: { roundId, questionIds, answered },
});
const answer = (questionId: string, decisionEventId: string): GateCommand => ({
  type: 'questionAnswered',
  data: { questionId, decisionEventId },
});
const humanResume: GateCommand = { type: 'humanResume' };
const sweep: GateCommand = { type: 'sweep', data: { staleAfterS: 900, parkAfterS: 7200 } };

/** A qa cycle started at 0 by `u-exec`. */
const started = [cycleStarted(0)];

describe('needs_user_decision', () => {
  it('parks without a cycle, asks the handler to record the questions and keeps the requested changes', () => {
    const decided = given(started).when(
      round('r1', [ask('rules', '  Is the code case-sensitive? ', 'No'), change]),
    );
    decided.then(
      askedForDecision(100, 'r1', {
        declare: [toDeclare('r1', 'rules', 'Is the code case-sensitive?', 'No')],
        pendingChanges: [apiChange],
      }),
    );
    const { state } = decided;
    expect(state).toMatchObject({
      status: 'parked',
      parkedReason: 'user_decision',
      pendingChanges: [apiChange],
    });
    const author = { userId: 'u-exec', answersFor: [] };
    expect(state && waitingForYou(state, author)).toBe(true);
    // §12.1 personal: another member does not unlock it, unless they answer for the author.
    expect(state && waitingForYou(state, { userId: 'bia', answersFor: [] })).toBe(false);
    expect(state && waitingForYou(state, { userId: 'bia', answersFor: ['u-exec'] })).toBe(true);
    expect(state && waitingForYou(state, null)).toBe(false);
  });

  it('links an existing openQuestionId instead of declaring a new question', () => {
    given(started)
      .when(round('r1', [askExisting('rules', 'q-old'), askExisting('ux', 'q-old')]))
      .then(askedForDecision(100, 'r1', { link: ['q-old'] }));
  });

  it('publishes gate.rescue_parked once the questions are linked and still open', () => {
    const asked = [
      ...started,
      ...askedForDecision(1, 'r1', {
        declare: [toDeclare('r1', 'rules', 'A?'), toDeclare('r1', 'ux', 'B?')],
      }),
    ];
    const decided = given(asked).when(linked('r1', ['q1', 'q2']));
    decided.then([questionsLinked(100, 'r1', ['q1', 'q2']), rescueParkedOnDecision(100, ['q1', 'q2'])]);
    expect(decided.events[1]?.data).toMatchObject({
      why: "waiting for the user's decision on 2 open questions",
    });
    expect(decided.state).toMatchObject({
      status: 'parked',
      questionIds: ['q1', 'q2'],
      pendingQuestionRequest: null,
    });
  });

  it('ignores a second link of the same round and a link for another round', () => {
    const parked = given(parkedOnDecision(['q1'], { declare: [toDeclare('r1', 'rules', 'A?')] }));
    parked.when(linked('r1', ['q1'])).then([]);
    parked.when(linked('r0', ['q9'])).then([]);
  });

  it('resumes only after both questions are answered, with every decision', () => {
    const parked = parkedOnDecision(['q1', 'q2'], {
      declare: [toDeclare('r1', 'rules', 'A?'), toDeclare('r1', 'ux', 'B?')],
      pendingChanges: [apiChange],
    });
    const first = given(parked).when(answer('q2', 'd2'));
    first.then([questionAnswered(100, 'q2', 'd2')]);
    expect(first.state).toMatchObject({ status: 'parked', questionIds: ['q1'] });

    const second = given([...parked, questionAnswered(100, 'q2', 'd2')]).when(answer('q1', 'd1'), 200);
    second.then([
      questionAnswered(200, 'q1', 'd1'),
      resumed(200, {
        trigger: 'answer',
        questionIds: ['q1', 'q2'],
        decisionEventIds: ['d1', 'd2'],
        pendingChanges: [apiChange],
      }),
    ]);
    expect(second.state).toMatchObject({
      status: 'running',
      parkedReason: null,
      questionIds: [],
      correctionCount: 0,
      lastActivityAt: at(200),
    });
  });

  it('does not park when the answer arrived before the cycle parked (remembered answer)', () => {
    given(started)
      .when(answer('q1', 'd1'), 1)
      .then([questionAnswered(1, 'q1', 'd1')]);
    const asked = given([
      ...started,
      questionAnswered(1, 'q1', 'd1'),
      ...askedForDecision(2, 'r1', { link: ['q1'] }),
    ]);
    const decided = asked.when(linked('r1', ['q1']));
    decided.then([
      questionsLinked(100, 'r1', ['q1']),
      resumed(100, { trigger: 'answer', questionIds: ['q1'], decisionEventIds: ['d1'] }),
    ]);
    expect(decided.state?.status).toBe('running');
  });

  it('does not park when the handler reports the question already answered', () => {
    const asked = given([
      ...started,
      ...askedForDecision(1, 'r1', { declare: [toDeclare('r1', 'rules', 'A?')] }),
    ]);
    const decided = asked.when(linked('r1', ['q1'], { q1: 'd1' }));
    decided.then([
      questionsLinked(100, 'r1', ['q1'], { answered: { q1: 'd1' } }),
      resumed(100, { trigger: 'answer', questionIds: ['q1'], decisionEventIds: ['d1'] }),
    ]);
    expect(decided.state?.answeredQuestions).toEqual({ q1: 'd1' });
  });

  it('an answer while the round is not yet linked is remembered and does not resume early', () => {
    const asked = [
      ...started,
      ...askedForDecision(1, 'r1', { link: ['q1'], declare: [toDeclare('r1', 'ux', 'B?')] }),
    ];
    given(asked)
      .when(answer('q1', 'd1'))
      .then([questionAnswered(100, 'q1', 'd1')]);
    const decided = given([...asked, questionAnswered(100, 'q1', 'd1')]).when(linked('r1', ['q1', 'q2']));
    decided.then([questionsLinked(100, 'r1', ['q1', 'q2']), rescueParkedOnDecision(100, ['q2'])]);
    expect(decided.state?.questionIds).toEqual(['q2']);
  });

  it('changes nothing for a duplicate answer', () => {
    given([
      ...parkedOnDecision(['q1', 'q2'], {
        declare: [toDeclare('r1', 'a', 'A?'), toDeclare('r1', 'b', 'B?')],
      }),
      questionAnswered(3, 'q1', 'd1'),
    ])
      .when(answer('q1', 'd1'))
      .then([]);
  });

  it('ignores answers and activity for a cycle that does not exist', () => {
    given([]).when(answer('q1', 'd1')).then([]);
    given([]).when({ type: 'activity' }).then([]);
  });
});

describe('§11.1 a verdict cites only questions of the project', () => {
  const ghost = 'q-ghost';

  it('refuses a round citing an absent question: nothing parked, counter untouched, the engine told why', () => {
    const before = given([...started, ...changesRequested(1, 'r0', 1)]);
    const decided = before.when(
      round('r1', [askExisting('rules', 'q-real'), askExisting('ux', ghost), change], {
        'q-real': { status: 'open' },
        [ghost]: { status: 'absent' },
      }),
    );
    decided.then([verdictRejected(100, 'r1', ghost)]);
    expect(decided.events.every(isPublished)).toBe(true);
    const { state } = decided;
    expect(state).toMatchObject({
      status: 'changes_requested',
      parkedReason: null,
      correctionCount: 1,
      questionIds: [],
      pendingQuestionRequest: null,
      lastActivityAt: at(100),
    });
    expect(state && waitingForYou(state, { userId: 'u-exec', answersFor: [] })).toBe(false);
  });

  it('keeps a running cycle running, and the same round again changes nothing', () => {
    const rejected = given(started).when(
      round('r1', [askExisting('rules', ghost)], { [ghost]: { status: 'absent' } }),
    );
    rejected.then([verdictRejected(100, 'r1', ghost)]);
    expect(rejected.state).toMatchObject({ status: 'running', parkedReason: null, correctionCount: 0 });
    given([...started, verdictRejected(100, 'r1', ghost)])
      .when(round('r1', [askExisting('rules', ghost)], {}))
      .then([]);
    expect(citationsToCheck(rejected.state, 'r1', [askExisting('rules', ghost)])).toEqual([]);
  });

  it('a citation nobody looked up counts as absent', () => {
    given(started)
      .when(round('r1', [askExisting('rules', 'q1')], {}))
      .then([verdictRejected(100, 'r1', 'q1')]);
  });

  it('a rejected verdict before any start opens the cycle, running', () => {
    const decided = given([]).when(round('r1', [askExisting('rules', ghost)], {}));
    decided.then([cycleStarted(100, { sessionAuthorId: 'u-qa' }), verdictRejected(100, 'r1', ghost)]);
    expect(decided.state).toMatchObject({
      status: 'running',
      processedRoundIds: ['r1'],
      sessionAuthorId: 'u-qa',
    });
  });

  it('an existing question, open or answered, lets the round through', () => {
    given(started)
      .when(
        round('r1', [askExisting('rules', 'q1'), askExisting('ux', 'q2')], {
          q1: { status: 'open' },
          q2: { status: 'answered', decisionEventId: 'd2' },
        }),
      )
      .then(askedForDecision(100, 'r1', { link: ['q1', 'q2'] }));
  });

  it('only a round that parks is checked: a blocked round with a ghost citation is recorded', () => {
    const blocked: SubspecialtyVerdict = { subspecialty: 'sec', verdict: 'blocked' };
    const verdicts = [askExisting('rules', ghost), blocked];
    expect(citationsToCheck(given(started).state, 'r1', verdicts)).toEqual([]);
    const decided = given(started).when(round('r1', verdicts, {}));
    decided.then(
      roundRecorded(100, 'r1', {
        verdict: 'blocked',
        nextAction: 'blocked',
        blockedReason: 'blocked by subspecialty: sec',
      }),
    );
    expect(decided.state?.status).toBe('blocked');
  });

  it('asks the handler to look up each cited question of a new parking round once', () => {
    const verdicts = [
      askExisting('rules', 'q1'),
      askExisting('ux', 'q1'),
      askExisting('api', 'q2'),
      ask('x', 'A?'),
    ];
    expect(citationsToCheck(given(started).state, 'r1', verdicts)).toEqual(['q1', 'q2']);
    expect(citationsToCheck(null, 'r1', verdicts)).toEqual(['q1', 'q2']);
    expect(citationsToCheck(given(started).state, 'r1', [ask('x', 'A?')])).toEqual([]);
  });
});

describe('human resume', () => {
  /** Started at 0, parked idle by the sweep at 7201. */
  const idleParked = [...started, parkedIdle(7201, 7201)];

  it('the sweep parks an idle cycle', () => {
    given(started)
      .when(sweep, 7201)
      .then([parkedIdle(7201, 7201)]);
  });

  it('resumes an idle-parked cycle without touching the counter', () => {
    const afterChanges = [...started, ...changesRequested(1, 'r1', 1)];
    given(afterChanges)
      .when(start, 10)
      .then([cycleStarted(10, { restarted: true })]);
    const restarted = [...afterChanges, cycleStarted(10, { restarted: true })];
    given(restarted)
      .when(sweep, 8000)
      .then([parkedIdle(8000, 7990)]);
    const decided = given([...restarted, parkedIdle(8000, 7990)]).when(humanResume, 8100);
    decided.then([resumed(8100, { trigger: 'human' })]);
    expect(decided.state).toMatchObject({ status: 'running', correctionCount: 1, lastActivityAt: at(8100) });
  });

  it('refuses 409 gate_nao_estacionado when the cycle is not parked', () => {
    given(started).when(humanResume, 5).then({ statusCode: 409, reason: 'gate_nao_estacionado' });
  });

  it('refuses 409 gate_aguarda_decisao with the open questions when parked on a decision', () => {
    given([
      ...parkedOnDecision(['q1', 'q2'], {
        declare: [toDeclare('r1', 'a', 'A?'), toDeclare('r1', 'b', 'B?')],
      }),
      questionAnswered(3, 'q1', 'd1'),
    ])
      .when(humanResume, 50)
      .then({ statusCode: 409, reason: 'gate_aguarda_decisao', details: { questionIds: ['q2'] } });
  });

  it('refuses 404 for a cycle that does not exist', () => {
    given([]).when(humanResume, 0).then({ statusCode: 404, reason: 'gate_nao_encontrado' });
  });

  it('a start on a parked cycle is only activity: it does not unpark', () => {
    const decided = given(idleParked).when(start, 9000);
    decided.then([activityRecorded(9000)]);
    expect(decided.state).toMatchObject({ status: 'parked', parkedReason: 'idle', lastActivityAt: at(9000) });
  });
});

describe('cycle lifecycle', () => {
  it('a start after changes_requested runs the gate again and keeps the counter', () => {
    const decided = given([...started, ...changesRequested(1, 'r1', 1)]).when(start, 2);
    decided.then([cycleStarted(2, { restarted: true })]);
    expect(decided.state).toMatchObject({ status: 'running', correctionCount: 1 });
  });

  it('publishes only the SPEC events', () => {
    const { events } = given(started).when(round('r1', [ask('a', 'A?'), change]));
    expect(events.filter(isPublished).map((e) => e.type)).toEqual(['gate.verdict_recorded']);
  });

  it('renders the gates route item', () => {
    const parked = given(parkedOnDecision(['q1'], { declare: [toDeclare('r1', 'a', 'A?')] }));
    expect(parked.state && gateView(parked.state, { userId: 'u-exec', answersFor: [] })).toEqual({
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
