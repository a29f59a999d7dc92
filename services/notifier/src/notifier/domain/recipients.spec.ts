import { planNotifications, type KnownQuestion } from './recipients';

const declared = (id: string, author: string, origin = 'tool', tasks = ['T-101']): KnownQuestion => ({
  questionId: id,
  sessionAuthorId: author,
  askedBy: origin === 'qa_verdict' ? 'qa-agent' : 'po',
  question: `question ${id}?`,
  suggestion: null,
  affects: { rules: [], stories: [], tasks },
  origin,
});
const known = (...qs: KnownQuestion[]) => new Map<string, KnownQuestion>(qs.map((q) => [q.questionId, q]));

describe('planNotifications', () => {
  it('tells the session author of a declared question, with what it holds up', () => {
    const plan = planNotifications(
      { type: 'question.declared', data: declared('q1', 'ana', 'qa_verdict') },
      new Map(),
    );
    expect(plan).toEqual({
      notifications: [
        expect.objectContaining({
          recipientUserId: 'ana',
          kind: 'question_declared',
          blocks: ['QA gate on T-101'],
          questions: [expect.objectContaining({ questionId: 'q1', question: 'question q1?' })],
        }),
      ],
    });
  });

  it('says what an analyst question holds up', () => {
    const plan = planNotifications(
      { type: 'question.declared', data: declared('q1', 'ana', 'analyst', ['T-20']) },
      new Map(),
    );
    expect('notifications' in plan && plan.notifications[0]!.blocks).toEqual(['analyst for T-20']);
  });

  it('tells each author of a parked gate once, with their own questions', () => {
    const qs = known(declared('q1', 'ana'), declared('q2', 'bia'), declared('q3', 'ana'));
    const plan = planNotifications(
      {
        type: 'gate.rescue_parked',
        data: {
          taskId: 'T-101',
          gate: 'qa',
          reason: 'user_decision',
          questionIds: ['q1', 'q2', 'q3'],
        },
      },
      qs,
    );
    expect(
      'notifications' in plan &&
        plan.notifications.map((n) => [n.recipientUserId, n.questions.map((q) => q.questionId)]),
    ).toEqual([
      ['ana', ['q1', 'q3']],
      ['bia', ['q2']],
    ]);
    expect('notifications' in plan && plan.notifications[0]).toMatchObject({
      kind: 'gate_parked',
      blocks: ['QA gate on T-101'],
      gate: { taskId: 'T-101', gate: 'qa' },
    });
  });

  it('tells nobody of an idle park (no questions)', () => {
    const plan = planNotifications(
      {
        type: 'gate.rescue_parked',
        data: { taskId: 'T-1', gate: 'qa', reason: 'idle', questionIds: [] },
      },
      new Map(),
    );
    expect(plan).toEqual({ notifications: [] });
  });

  it('waits for a question it has not heard declared yet', () => {
    const plan = planNotifications(
      {
        type: 'gate.resumed',
        data: {
          taskId: 'T-1',
          gate: 'qa',
          trigger: 'answer',
          questionIds: ['q1', 'q9'],
        },
      },
      known(declared('q1', 'ana')),
    );
    expect(plan).toEqual({ missing: ['q9'] });
  });

  it('tells the authors of a resumed gate, with the trigger', () => {
    const plan = planNotifications(
      {
        type: 'gate.resumed',
        data: {
          taskId: 'T-1',
          gate: 'secops',
          trigger: 'withdrawn',
          questionIds: ['q1'],
          withdrawnQuestionIds: ['q2'],
        },
      },
      known(declared('q1', 'ana'), declared('q2', 'bia')),
    );
    expect(
      'notifications' in plan && plan.notifications.map((n) => [n.recipientUserId, n.kind, n.gate?.trigger]),
    ).toEqual([
      ['ana', 'gate_resumed', 'withdrawn'],
      ['bia', 'gate_resumed', 'withdrawn'],
    ]);
  });

  it('tells the author of an answer an agent recorded, and nobody of their own click', () => {
    const answered = {
      questionId: 'q1',
      answer: '410',
      respondent: 'ana',
    };
    const qs = known(declared('q1', 'ana'));
    expect(
      planNotifications({ type: 'question.answered', data: { ...answered, viaAgent: null } }, qs),
    ).toEqual({
      notifications: [],
    });
    const byAgent = planNotifications(
      { type: 'question.answered', data: { ...answered, viaAgent: 'po' } },
      qs,
    );
    expect('notifications' in byAgent && byAgent.notifications[0]).toMatchObject({
      recipientUserId: 'ana',
      kind: 'question_answered',
      questions: [{ questionId: 'q1', answer: '410' }],
    });
  });
});
