import { deciderSpec } from '@openq/testing/decider';
import { nextAdmissions } from './admission';
import { DEFAULT_ANALYSIS_FLAGS, type AnalysisFlags } from './analysis-outcome';
import {
  decide,
  pipelineTask,
  isPublishedPipelineEvent,
  stageAfter,
  type PipelineCommand,
  type PipelineTask,
} from './pipeline-task';

const T0 = Date.UTC(2026, 5, 17);
const at = (s: number) => new Date(T0 + s * 1000);
const { given, history } = deciderSpec(pipelineTask, at);
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

const inAnalysis = () => given(history([register(), admit])).state;
const needsInput = () =>
  given(history([register(), admit, finished(pkg(Q, null)), linked(['q1', 'q2'])])).state;

describe('pipeline task', () => {
  it('registers once', () => {
    const s = given(history([register()])).state;
    expect(s).toMatchObject({ stage: 'created', pausedAt: null, relaunchCount: 0 });
    expect(given([], s).when(register()).events).toEqual([]);
  });

  it('admits through the serial gate only from the pending stage', () => {
    const s = given(history([register('B', 2)])).state;
    const blocked: PipelineCommand = {
      type: 'admit',
      data: {
        tasks: [{ taskId: 'A', repo: 'api', order: 1, deps: [], stage: 'analysis', pausedAt: null }],
        freezes: { repos: [] },
        flags: { serialGatePauseEnabled: true },
      },
    };
    expect(given([], s).when(blocked).events).toEqual([]);
    const { events, state } = given([], s).when(admit);
    expect(events).toEqual([
      { type: 'pipeline.task_admitted', data: { taskId: 'B', repo: 'api' }, occurredAt: at(100) },
    ]);
    expect(state).toMatchObject({ stage: 'analysis', analystRunning: true });
    expect(given([], state).when(admit).events).toEqual([]);
  });

  describe('analysis finished', () => {
    it('needs input: asks for the questions and auto-parks with source engine', () => {
      const { types, events, state } = given([], inAnalysis()).when(finished(pkg(Q, OLDER)));
      expect(types).toEqual([
        'pipeline.analysis_recorded',
        'pipeline.questions_requested',
        'pipeline.task_paused',
      ]);
      expect(events[1]?.data).toEqual({
        taskId: 'A',
        request: {
          sessionId: 's1',
          sessionAuthorId: 'u1',
          autor: 'analyst',
          origin: 'analyst',
          afeta: { regras: [], historias: [], tarefas: ['A'] },
          declare: [
            { key: 'analyst:A:s1:0:0', pergunta: 'Which market?', sugestao: 'BR' },
            { key: 'analyst:A:s1:0:1', pergunta: 'Tax?', sugestao: null },
          ],
        },
      });
      expect(events[2]?.data).toEqual({ taskId: 'A', source: 'engine' });
      expect(state).toMatchObject({
        pausedAt: at(100),
        pauseSource: 'engine',
        needsInput: true,
        analystRunning: false,
      });
    });

    it('publishes needs_input with the question ids once linked', () => {
      const asked = given(history([register(), admit, finished(pkg(Q, null))])).state;
      const { types, events } = given([], asked).when(linked(['q1', 'q2']));
      expect(types).toEqual(['pipeline.questions_linked', 'pipeline.needs_input']);
      expect(events[1]?.data).toEqual({ taskId: 'A', repo: 'api', questionIds: ['q1', 'q2'] });
    });

    it('autopause off: needs input without a pause', () => {
      expect(
        given([], inAnalysis()).when(finished(pkg(Q, null), { analystNeedsInputAutopauseEnabled: false }))
          .types,
      ).toEqual(['pipeline.analysis_recorded', 'pipeline.questions_requested']);
    });

    it('files ready + auto-approve: in review and advanced to architecture', () => {
      const { types, state } = given([], inAnalysis()).when(finished(pkg(null, NEWER), {}, ['auto-approve']));
      expect(types).toEqual(['pipeline.analysis_recorded', 'pipeline.in_review', 'pipeline.advanced']);
      expect(state?.stage).toBe('architecture');
    });

    it('incomplete package', () => {
      const { events } = given([], inAnalysis()).when(finished(pkg(null, null)));
      expect(events[1]).toMatchObject({
        type: 'pipeline.analysis_incomplete',
        data: { missing: expect.arrayContaining(['01-brd.md']) },
      });
    });

    it('a failing questions predicate degrades to files ready and says so on the record', () => {
      const broken = { ...pkg(Q, NEWER), '02-trz.md': '2026-02-30T10:00:00Z' };
      const { events, types } = given([], inAnalysis()).when(finished(broken));
      expect(types).toEqual(['pipeline.analysis_recorded', 'pipeline.in_review']);
      expect(events[0]?.data).toMatchObject({
        outcome: 'in_review',
        questionsCheckError: expect.stringContaining('02-trz.md'),
      });
      expect(given([], inAnalysis()).when(finished(pkg(Q, NEWER))).events[0]?.data).not.toHaveProperty(
        'questionsCheckError',
      );
    });

    it('keys the declarations by session and run, so a later run never reuses a question', () => {
      const relaunched = given(history([answered('q1'), answered('q2')], needsInput()), needsInput()).state;
      const again = given([], relaunched).when(finished(pkg(Q, null)));
      const request = again.events.find((e) => e.type === 'pipeline.questions_requested');
      expect(request?.data).toMatchObject({
        request: { declare: [{ key: 'analyst:A:s1:1:0' }, { key: 'analyst:A:s1:1:1' }] },
      });
    });

    it('is ignored outside the analysis stage', () => {
      expect(given([], given(history([register()])).state).when(finished(pkg(Q, null))).events).toEqual([]);
    });
  });

  describe('resume + unpark', () => {
    it('relaunches once, after the last answer, unpausing the task', () => {
      const first = given([], needsInput()).when(answered('q1'));
      expect(first.types).toEqual(['pipeline.question_answered']);
      const last = given([], first.state).when(answered('q2'), 200);
      expect(last.types).toEqual([
        'pipeline.question_answered',
        'pipeline.task_unpaused',
        'pipeline.relaunch_recorded',
        'pipeline.analyst_relaunch',
      ]);
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
      expect(given([], last.state).when(answered('q2')).events).toEqual([]);
      expect(given([], last.state).when(status('in_progress')).types).toEqual([]);
    });

    it('relaunches once when moved back to In Progress; a duplicate move does nothing', () => {
      const moved = given([], needsInput()).when(status('in_progress'));
      expect(moved.types).toEqual([
        'pipeline.task_unpaused',
        'pipeline.relaunch_recorded',
        'pipeline.analyst_relaunch',
      ]);
      expect(moved.state).toMatchObject({ lastRelaunchTrigger: 'in_progress', relaunchCount: 1 });
      expect(given([], moved.state).when(status('in_progress')).events).toEqual([]);
      expect(given([], moved.state).when(answered('q1')).types).toEqual(['pipeline.question_answered']);
    });

    it('stays put when the analyst finished again and a stale trigger arrives', () => {
      const relaunched = given([], needsInput()).when(status('in_progress')).state;
      const done = given(history([finished(pkg(null, NEWER))], relaunched), relaunched).state;
      expect(done).toMatchObject({ analystRunning: false, needsInput: false });
      expect(given([], done).when(status('in_progress')).events).toEqual([]);
    });

    it('relaunches at link time when every question was already answered', () => {
      const asked = given(history([register(), admit, finished(pkg(Q, null))])).state;
      expect(given([], asked).when(linked(['q1'], ['q1'])).types).toEqual([
        'pipeline.questions_linked',
        'pipeline.needs_input',
        'pipeline.task_unpaused',
        'pipeline.relaunch_recorded',
        'pipeline.analyst_relaunch',
      ]);
    });

    it('without autopause it relaunches without an unpause', () => {
      const s = given(
        history([
          register(),
          admit,
          finished(pkg(Q, null), { analystNeedsInputAutopauseEnabled: false }),
          linked(['q1']),
        ]),
      ).state;
      expect(given([], s).when(answered('q1')).types).toEqual([
        'pipeline.question_answered',
        'pipeline.relaunch_recorded',
        'pipeline.analyst_relaunch',
      ]);
    });

    it('needs the analysis stage and no running analyst', () => {
      const running = given(history([register(), admit, { type: 'pause' }])).state;
      expect(given([], running).when(status('in_progress')).events).toEqual([]);
      const elsewhere = given(
        history([{ type: 'statusChanged', data: { stage: 'architecture' } }], needsInput()),
        needsInput(),
      ).state;
      expect(given([], elsewhere).when(answered('q1')).types).toEqual(['pipeline.question_answered']);
      expect(given([], elsewhere).when(status('in_progress')).events).toEqual([]);
    });
  });

  describe('operator pause / resume', () => {
    it('pauses and resumes with source operator', () => {
      const paused = given([], inAnalysis()).when({ type: 'pause' });
      expect(paused.events).toEqual([
        { type: 'pipeline.task_paused', data: { taskId: 'A', source: 'operator' }, occurredAt: at(100) },
      ]);
      expect(paused.state).toMatchObject({ pausedAt: at(100), pauseSource: 'operator' });
      const resumed = given([], paused.state).when({ type: 'resume' }, 150);
      expect(resumed.events).toEqual([
        { type: 'pipeline.task_unpaused', data: { taskId: 'A', source: 'operator' }, occurredAt: at(150) },
      ]);
      expect(resumed.state).toMatchObject({ pausedAt: null, pauseSource: null });
    });

    it.each<[string, () => PipelineTask | null, PipelineCommand, number, string]>([
      ['pause of an unknown task', () => null, { type: 'pause' }, 404, 'tarefa_nao_encontrada'],
      ['resume of an unknown task', () => null, { type: 'resume' }, 404, 'tarefa_nao_encontrada'],
      [
        'pause of a paused task',
        () => given(history([{ type: 'pause' }], inAnalysis()), inAnalysis()).state,
        { type: 'pause' },
        409,
        'tarefa_ja_pausada',
      ],
      ['resume of a running task', inAnalysis, { type: 'resume' }, 409, 'tarefa_nao_pausada'],
      [
        'pause of a done task',
        () => given(history([status('done')], inAnalysis()), inAnalysis()).state,
        { type: 'pause' },
        409,
        'tarefa_encerrada',
      ],
      [
        'resume of a cancelled paused task',
        () => given(history([{ type: 'pause' }, status('cancelled')], inAnalysis()), inAnalysis()).state,
        { type: 'resume' },
        409,
        'tarefa_encerrada',
      ],
    ])('refuses %s', (_name, state, command, statusCode, reason) => {
      expect(decide(command, state(), at(1))).toMatchObject({
        refused: true,
        statusCode,
        reason,
      });
    });
  });

  it('auto-park lets the next task of the repo in', () => {
    const a = needsInput();
    const b = given(history([register('B', 2)])).state;
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
