import { deciderSpec } from '@openq/testing/decider';
import { nextAdmissions } from './admission';
import { DEFAULT_ANALYSIS_FLAGS, type AnalysisFlags } from './analysis-outcome';
import {
  pipelineTask,
  isPublishedPipelineEvent,
  stageAfter,
  type PipelineCommand,
  type PipelineEvent,
} from './pipeline-task';
import {
  advanced,
  analysisRecorded,
  analystRequest,
  askedForInput,
  askedQuestions,
  at,
  inAnalysis,
  inReview,
  needsInput,
  questionAnswered,
  questionsLinked,
  questionsRequested,
  relaunched,
  stageChanged,
  taskAdmitted,
  taskPaused,
  taskRegistered,
  taskUnpaused,
} from '../__fixtures__/pipeline-events';

const { given } = deciderSpec(pipelineTask, at);
const Q = '2026-06-17T10:00:00Z';
const NEWER = '2026-06-17T11:00:00Z';
const OLDER = '2026-06-17T09:00:00Z';

const register = (taskId = 'A', order = 1, labels: string[] = []): PipelineCommand => ({
  type: 'register',
  data: { projectId: 'p1', taskId, repo: 'api', order, deps: [], labels },
});
const admit: PipelineCommand = {
  type: 'admit',
  data: { tasks: [], freezes: { repos: [] }, flags: { serialGatePauseEnabled: true } },
};
const pkg = (questions: string | null, deliverables: string | null) => ({
  '01-questions.md': questions,
  '01-brd.md': deliverables,
  '02-trz.md': deliverables,
  '03-acceptance-criteria.md': deliverables,
  '04-test-plan.yaml': deliverables,
});
const finished = (
  p: ReturnType<typeof pkg>,
  flags: Partial<AnalysisFlags> = {},
  labels: string[] = [],
): PipelineCommand => ({
  type: 'recordAnalysis',
  data: {
    report: {
      repo: 'api',
      labels,
      sessionId: 's1',
      sessionAuthorId: 'u1',
      package: p,
      questions: [{ pergunta: ' Which market? ', sugestao: 'BR' }, { pergunta: 'Tax?' }],
    },
    flags: { ...DEFAULT_ANALYSIS_FLAGS, ...flags },
  },
});
const linked = (questionIds: string[], answeredQuestionIds?: string[]): PipelineCommand => ({
  type: 'questionsLinked',
  data: { questionIds, answeredQuestionIds },
});
const answered = (questionId: string): PipelineCommand => ({
  type: 'questionAnswered',
  data: { questionId },
});
const status = (s: string): PipelineCommand => ({ type: 'statusChanged', data: { status: s } });

describe('pipeline task', () => {
  it('registers once', () => {
    const s = given([taskRegistered()]).state;
    expect(s).toMatchObject({ stage: 'created', pausedAt: null, relaunchCount: 0 });
    given([taskRegistered()]).when(register()).then([]);
  });

  it('admits through the serial gate only from the pending stage', () => {
    const waiting = given([taskRegistered(0, { taskId: 'B', order: 2 })]);
    const blocked: PipelineCommand = {
      type: 'admit',
      data: {
        tasks: [{ taskId: 'A', repo: 'api', order: 1, deps: [], stage: 'analysis', pausedAt: null }],
        freezes: { repos: [] },
        flags: { serialGatePauseEnabled: true },
      },
    };
    waiting.when(blocked).then([]);
    const admitted = waiting.when(admit);
    admitted.then([taskAdmitted(100, 'B')]);
    expect(admitted.state).toMatchObject({ stage: 'analysis', analystRunning: true });
    given([taskRegistered(0, { taskId: 'B', order: 2 }), taskAdmitted(100, 'B')])
      .when(admit)
      .then([]);
  });

  describe('analysis finished', () => {
    it('needs input: asks for the questions and auto-parks with source engine', () => {
      const asked = given(inAnalysis()).when(finished(pkg(Q, OLDER)));
      asked.then([
        analysisRecorded(100, 'needs_input'),
        questionsRequested(100, {
          sessionId: 's1',
          sessionAuthorId: 'u1',
          role: 'analyst',
          origin: 'analyst',
          affects: { rules: [], stories: [], tasks: ['A'] },
          declare: [
            { key: 'analyst:A:s1:0:0', question: 'Which market?', suggestion: 'BR' },
            { key: 'analyst:A:s1:0:1', question: 'Tax?', suggestion: null },
          ],
        }),
        taskPaused(100, 'engine'),
      ]);
      expect(asked.state).toMatchObject({
        pausedAt: at(100),
        pauseSource: 'engine',
        needsInput: true,
        analystRunning: false,
      });
    });

    it('publishes needs_input with the question ids once linked', () => {
      given(askedForInput())
        .when(linked(['q1', 'q2']))
        .then(questionsLinked(100, ['q1', 'q2']));
    });

    it('autopause off: needs input without a pause', () => {
      given(inAnalysis())
        .when(finished(pkg(Q, null), { analystNeedsInputAutopauseEnabled: false }))
        .then([
          analysisRecorded(100, 'needs_input'),
          questionsRequested(100, analystRequest(askedQuestions())),
        ]);
    });

    it('files ready + auto-approve: in review and advanced to architecture', () => {
      const approved = given(inAnalysis()).when(finished(pkg(null, NEWER), {}, ['auto-approve']));
      approved.then([...inReview(100), advanced(100, 'architecture')]);
      expect(approved.state?.stage).toBe('architecture');
    });

    it('incomplete package', () => {
      given(inAnalysis())
        .when(finished(pkg(null, null)))
        .then([
          analysisRecorded(100, 'analysis_incomplete'),
          {
            type: 'pipeline.analysis_incomplete',
            data: { taskId: 'A', repo: 'api', missing: expect.arrayContaining(['01-brd.md']) },
            occurredAt: at(100),
          },
        ]);
    });

    it('a failing questions predicate degrades to files ready and says so on the record', () => {
      const broken = { ...pkg(Q, NEWER), '02-trz.md': '2026-02-30T10:00:00Z' };
      const [recorded, ...rest] = inReview(100);
      given(inAnalysis())
        .when(finished(broken))
        .then([
          {
            ...recorded,
            data: {
              taskId: 'A',
              outcome: 'in_review',
              questionsCheckError: expect.stringContaining('02-trz.md'),
            },
          } as PipelineEvent,
          ...rest,
        ]);
      // Without the failure the record carries no questionsCheckError.
      given(inAnalysis())
        .when(finished(pkg(Q, NEWER)))
        .then(inReview(100));
    });

    it('keys the declarations by session and run, so a later run never reuses a question', () => {
      const relaunchedOnce = [
        ...needsInput(),
        questionAnswered(4, 'q1'),
        questionAnswered(5, 'q2'),
        ...relaunched(5, 'answers', { unpause: true }),
      ];
      given(relaunchedOnce)
        .when(finished(pkg(Q, null)))
        .then([
          analysisRecorded(100, 'needs_input'),
          questionsRequested(100, analystRequest(askedQuestions(1))),
          taskPaused(100, 'engine'),
        ]);
    });

    it('is ignored outside the analysis stage', () => {
      given([taskRegistered()])
        .when(finished(pkg(Q, null)))
        .then([]);
    });
  });

  describe('resume + unpark', () => {
    it('relaunches once, after the last answer, unpausing the task', () => {
      given(needsInput())
        .when(answered('q1'))
        .then([questionAnswered(100, 'q1')]);
      const oneAnswered = [...needsInput(), questionAnswered(100, 'q1')];
      const last = given(oneAnswered).when(answered('q2'), 200);
      last.then([questionAnswered(200, 'q2'), ...relaunched(200, 'answers', { unpause: true })]);
      expect(last.events.filter(isPublishedPipelineEvent).map((e) => e.data)).toEqual([
        { taskId: 'A', source: 'engine' },
        { taskId: 'A' },
      ]);
      expect(last.state).toMatchObject({
        pausedAt: null,
        needsInput: false,
        analystRunning: true,
        relaunchCount: 1,
        lastRelaunchTrigger: 'answers',
      });
      // Duplicate triggers relaunch nothing more.
      const afterRelaunch = given([...oneAnswered, ...last.events]);
      afterRelaunch.when(answered('q2')).then([]);
      afterRelaunch.when(status('in_progress')).then([]);
    });

    it('relaunches once when moved back to In Progress; a duplicate move does nothing', () => {
      const moved = given(needsInput()).when(status('in_progress'));
      moved.then(relaunched(100, 'in_progress', { unpause: true }));
      expect(moved.state).toMatchObject({ lastRelaunchTrigger: 'in_progress', relaunchCount: 1 });
      const afterMove = given([...needsInput(), ...relaunched(100, 'in_progress', { unpause: true })]);
      afterMove.when(status('in_progress')).then([]);
      afterMove.when(answered('q1')).then([questionAnswered(100, 'q1')]);
    });

    it('stays put when the analyst finished again and a stale trigger arrives', () => {
      const done = given([
        ...needsInput(),
        ...relaunched(4, 'in_progress', { unpause: true }),
        ...inReview(5),
      ]);
      expect(done.state).toMatchObject({ analystRunning: false, needsInput: false });
      done.when(status('in_progress')).then([]);
    });

    it('relaunches at link time when every question was already answered', () => {
      given(askedForInput())
        .when(linked(['q1'], ['q1']))
        .then([...questionsLinked(100, ['q1'], ['q1']), ...relaunched(100, 'answers', { unpause: true })]);
    });

    it('without autopause it relaunches without an unpause', () => {
      given(needsInput(['q1'], { autopause: false }))
        .when(answered('q1'))
        .then([questionAnswered(100, 'q1'), ...relaunched(100, 'answers')]);
    });

    it('needs the analysis stage and no running analyst', () => {
      given([...inAnalysis(), taskPaused(2, 'operator')])
        .when(status('in_progress'))
        .then([]);
      const elsewhere = given([...needsInput(), stageChanged(4, 'architecture')]);
      elsewhere.when(answered('q1')).then([questionAnswered(100, 'q1')]);
      elsewhere.when(status('in_progress')).then([]);
    });
  });

  describe('operator pause / resume', () => {
    it('pauses and resumes with source operator', () => {
      const paused = given(inAnalysis()).when({ type: 'pause' });
      paused.then([taskPaused(100, 'operator')]);
      expect(paused.state).toMatchObject({ pausedAt: at(100), pauseSource: 'operator' });
      const resumed = given([...inAnalysis(), taskPaused(100, 'operator')]).when({ type: 'resume' }, 150);
      resumed.then([taskUnpaused(150, 'operator')]);
      expect(resumed.state).toMatchObject({ pausedAt: null, pauseSource: null });
    });

    it.each<[string, PipelineEvent[], PipelineCommand, number, string]>([
      ['pause of an unknown task', [], { type: 'pause' }, 404, 'tarefa_nao_encontrada'],
      ['resume of an unknown task', [], { type: 'resume' }, 404, 'tarefa_nao_encontrada'],
      [
        'pause of a paused task',
        [...inAnalysis(), taskPaused(2, 'operator')],
        { type: 'pause' },
        409,
        'tarefa_ja_pausada',
      ],
      ['resume of a running task', inAnalysis(), { type: 'resume' }, 409, 'tarefa_nao_pausada'],
      [
        'pause of a done task',
        [...inAnalysis(), stageChanged(2, 'done')],
        { type: 'pause' },
        409,
        'tarefa_encerrada',
      ],
      [
        'resume of a cancelled paused task',
        [...inAnalysis(), taskPaused(2, 'operator'), stageChanged(3, 'cancelled')],
        { type: 'resume' },
        409,
        'tarefa_encerrada',
      ],
    ])('refuses %s', (_name, past, command, statusCode, reason) => {
      given(past).when(command, 1).then({ refused: true, statusCode, reason });
    });
  });

  it('auto-park lets the next task of the repo in', () => {
    const a = given(needsInput()).state;
    const b = given([taskRegistered(0, { taskId: 'B', order: 2 })]).state;
    if (!a || !b) throw new Error('setup');
    expect(nextAdmissions([a, b], { repos: [] }, { serialGatePauseEnabled: true })).toEqual(['B']);
    expect(nextAdmissions([a, b], { repos: [] }, { serialGatePauseEnabled: false })).toEqual([]);
  });

  it.each<[string, { stage?: string; status?: string }, string]>([
    ['explicit stage', { stage: 'architecture', status: 'in_progress' }, 'architecture'],
    ['done status', { status: 'done' }, 'done'],
    ['cancelled status', { status: 'cancelled' }, 'cancelled'],
    ['other status keeps the stage', { status: 'in_review' }, 'analysis'],
  ])('stageAfter: %s', (_name, data, expected) => {
    expect(stageAfter('analysis', data)).toBe(expected);
  });
});
