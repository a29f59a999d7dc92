import { deciderSpec } from '@openq/testing/decider';
import { toWire } from '../gate-transaction';
import { gateCycle, isPublished, type CitedQuestion, type GateCommand } from './gate-cycle';
import type { SubspecialtyVerdict } from './record-round';
import {
  askedForDecision,
  at,
  cycleStarted,
  parkedOnDecision,
  questionAnswered,
  questionsLinked,
  questionWithdrawn,
  rescueParkedOnDecision,
  resumed,
  roundRecorded,
  toDeclare,
} from '../__fixtures__/gate-events';

/** SPEC §11.5: a withdrawn question needs no answer; the park it closes resumes with trigger `withdrawn`. */
const { given } = deciderSpec(gateCycle, at);

const withdraw = (questionId: string): GateCommand => ({ type: 'questionWithdrawn', data: { questionId } });
const answer = (questionId: string, decisionEventId: string): GateCommand => ({
  type: 'questionAnswered',
  data: { questionId, decisionEventId },
});
const linked = (
  roundId: string,
  questionIds: string[],
  closed: { answered?: Record<string, string>; withdrawn?: string[] } = {},
): GateCommand => ({ type: 'questionsLinked', data: { roundId, questionIds, ...closed } });

const twoQuestions = { declare: [toDeclare('r1', 'a', 'A?'), toDeclare('r1', 'b', 'B?')] };
const parkedOnTwo = parkedOnDecision(['q1', 'q2'], twoQuestions);

describe('§11.5 a cycle parked on questions, one of them withdrawn', () => {
  it('one answered, the last withdrawn: resumes with trigger withdrawn, the decision and the withdrawn id', () => {
    const decided = given([...parkedOnTwo, questionAnswered(3, 'q1', 'd1')]).when(withdraw('q2'));
    decided.then([
      questionWithdrawn(100, 'q2'),
      resumed(100, {
        trigger: 'withdrawn',
        questionIds: ['q1', 'q2'],
        decisionEventIds: ['d1'],
        withdrawnQuestionIds: ['q2'],
      }),
    ]);
    expect(decided.state).toMatchObject({ status: 'running', parkedReason: null, questionIds: [] });
  });

  it('one withdrawn, the last answered: resumes with trigger answer, still naming the withdrawn one', () => {
    given([...parkedOnTwo, questionWithdrawn(3, 'q1')])
      .when(answer('q2', 'd2'))
      .then([
        questionAnswered(100, 'q2', 'd2'),
        resumed(100, {
          trigger: 'answer',
          questionIds: ['q1', 'q2'],
          decisionEventIds: ['d2'],
          withdrawnQuestionIds: ['q1'],
        }),
      ]);
  });

  it('a withdrawal that leaves a question open only takes it off the park', () => {
    const decided = given(parkedOnTwo).when(withdraw('q1'));
    decided.then([questionWithdrawn(100, 'q1')]);
    expect(decided.state).toMatchObject({ status: 'parked', questionIds: ['q2'] });
  });

  it('every question withdrawn: no decision at all', () => {
    given([...parkedOnDecision(['q1']), questionWithdrawn(3, 'q9')])
      .when(withdraw('q1'))
      .then([
        questionWithdrawn(100, 'q1'),
        resumed(100, {
          trigger: 'withdrawn',
          questionIds: ['q1'],
          decisionEventIds: [],
          withdrawnQuestionIds: ['q1'],
        }),
      ]);
  });

  it('is remembered before the link: a round whose questions are all closed does not park', () => {
    const asked = [
      cycleStarted(0),
      questionWithdrawn(1, 'q1'),
      ...askedForDecision(2, 'r1', { link: ['q1'] }),
    ];
    const decided = given(asked).when(linked('r1', ['q1']));
    decided.then([
      questionsLinked(100, 'r1', ['q1']),
      resumed(100, { trigger: 'withdrawn', questionIds: ['q1'], withdrawnQuestionIds: ['q1'] }),
    ]);
    expect(decided.state?.status).toBe('running');
  });

  it('the handler reports a question withdrawn at link time: it is not waited on', () => {
    const asked = [cycleStarted(0), ...askedForDecision(1, 'r1', twoQuestions)];
    given(asked)
      .when(linked('r1', ['q1', 'q2'], { withdrawn: ['q1'] }))
      .then([
        questionsLinked(100, 'r1', ['q1', 'q2'], { withdrawn: ['q1'] }),
        rescueParkedOnDecision(100, ['q2']),
      ]);
    // Closed at link time, one answered and one withdrawn: which closed last is unknown, so `answer`.
    given(asked)
      .when(linked('r1', ['q1', 'q2'], { withdrawn: ['q1'], answered: { q2: 'd2' } }))
      .then([
        questionsLinked(100, 'r1', ['q1', 'q2'], { withdrawn: ['q1'], answered: { q2: 'd2' } }),
        resumed(100, {
          trigger: 'answer',
          questionIds: ['q1', 'q2'],
          decisionEventIds: ['d2'],
          withdrawnQuestionIds: ['q1'],
        }),
      ]);
  });

  it('a verdict citing a withdrawn question is not refused (it exists) and does not park on it', () => {
    const cite: SubspecialtyVerdict = {
      subspecialty: 'rules',
      verdict: 'needs_user_decision',
      openQuestionId: 'q1',
    };
    const citations: Record<string, CitedQuestion> = { q1: { status: 'withdrawn' } };
    const decided = given([cycleStarted(0)]).when({
      type: 'recordRound',
      data: {
        projectId: 'p1',
        taskId: 't1',
        gate: 'qa',
        sessionAuthorId: 'u-qa',
        roundId: 'r1',
        verdicts: [cite],
        citations,
      },
    });
    expect(decided.types).toEqual([
      'gate.round_recorded',
      'gate.verdict_recorded',
      'gate.questions_requested',
    ]);
  });

  it('changes nothing for a duplicate withdrawal, an answered question, or a cycle that does not exist', () => {
    given([...parkedOnTwo, questionWithdrawn(3, 'q1')])
      .when(withdraw('q1'))
      .then([]);
    given([...parkedOnTwo, questionAnswered(3, 'q1', 'd1')])
      .when(withdraw('q1'))
      .then([]);
    given([]).when(withdraw('q1')).then([]);
  });

  it('a cycle not parked on the question only remembers it', () => {
    const running = [
      cycleStarted(0),
      ...roundRecorded(1, 'r0', { verdict: 'approved', nextAction: 'run_secops' }),
    ];
    const decided = given(running).when(withdraw('q1'));
    decided.then([questionWithdrawn(100, 'q1')]);
    expect(decided.state?.withdrawnQuestions).toEqual(['q1']);
  });

  it('stays internal; gate.resumed carries withdrawnQuestionIds on the wire', () => {
    expect(isPublished(questionWithdrawn(1, 'q1'))).toBe(false);
    const wire = toWire(
      resumed(5, { trigger: 'withdrawn', questionIds: ['q1'], withdrawnQuestionIds: ['q1'] }),
      'p1',
    );
    expect(wire).toMatchObject({
      type: 'gate.resumed',
      data: { trigger: 'withdrawn', questionIds: ['q1'], decisionEventIds: [], withdrawnQuestionIds: ['q1'] },
    });
  });
});
