import type { PayloadOf } from '../commands/command';
import type { Commands } from '../commands/command-registry';
import { agentEventExamples } from './event-examples';
import { EXAMPLE_AFETA as afeta, EXAMPLE_IDS as I, deepFreeze } from './fixtures';

type CommandExamples = {
  readonly [S in keyof typeof Commands]: {
    readonly [V in keyof (typeof Commands)[S]]: PayloadOf<(typeof Commands)[S][V]>;
  };
};

/** One valid payload per command, by service then verb (as `Commands`). */
export const commandExamples: CommandExamples = deepFreeze({
  questions: {
    declare: {
      projectId: I.projectId,
      declaration: { ...agentEventExamples['agent.question.declare'], afeta: { ...afeta }, origin: 'tool' },
    },
    answer: {
      projectId: I.projectId,
      questionId: I.questionId,
      userId: I.sessionAuthorId,
      aceitarSugestao: true,
    },
    answerByAgent: { projectId: I.projectId, questionId: I.questionId, viaAgente: 'arquiteto' },
    withdraw: {
      projectId: I.projectId,
      questionId: I.questionId,
      userId: I.sessionAuthorId,
      motivo: 'Archived codes are out of scope for this release',
    },
    split: {
      projectId: I.projectId,
      questionId: I.questionId,
      userId: I.sessionAuthorId,
      toolCallId: I.toolCallId,
    },
    amend: {
      projectId: I.projectId,
      questionId: I.questionId,
      userId: I.sessionAuthorId,
      resposta: '404 for archived codes: they were never public',
    },
    list: { projectId: I.projectId, userId: I.sessionAuthorId, status: 'open', limit: 50 },
    listAcross: {
      projectIds: [I.projectId, 'p2'],
      userId: I.sessionAuthorId,
      status: 'open',
      limit: 50,
      who: 'mine',
      role: ['arquiteto', 'qa-agent'],
      q: 'cache',
    },
    count: { projectId: I.projectId },
    readiness: { projectId: I.projectId, action: 'im_ready' },
    status: { projectId: I.projectId, questionIds: [I.questionId] },
    declaredBy: { projectId: I.projectId, toolCallId: 'call_01' },
    delegationGrant: {
      projectId: I.projectId,
      userId: I.sessionAuthorId,
      to: I.delegateId,
      until: '2026-12-31T18:00:00.000Z',
    },
    delegationRevoke: { projectId: I.projectId, userId: I.sessionAuthorId, grantId: I.grantId },
    delegationList: { projectId: I.projectId, userId: I.sessionAuthorId },
    policiesGet: { projectId: I.projectId, userId: I.delegateId },
    policiesChange: {
      projectId: I.projectId,
      userId: 'user-maintainer',
      motivo: 'the team answers for each other during the release week',
      delegacao: true,
    },
  },
  gates: {
    list: { projectId: I.projectId, taskId: I.taskId, userId: I.sessionAuthorId, answersFor: [] },
    resume: { projectId: I.projectId, taskId: I.taskId, gate: 'qa', userId: I.sessionAuthorId },
    waiting: { projectId: I.projectId },
    blocking: { projectId: I.projectId },
    history: { projectId: I.projectId, taskId: I.taskId, gate: 'qa', limit: 20 },
    pipelineQueue: { projectId: I.projectId, repo: I.repo },
    pipelinePause: { projectId: I.projectId, taskId: I.taskId, userId: 'user-maintainer' },
    pipelineResume: { projectId: I.projectId, taskId: I.taskId, userId: 'user-maintainer' },
    pipelineFreeze: {
      projectId: I.projectId,
      repo: I.repo,
      userId: 'user-maintainer',
      motivo: 'Release week',
    },
    pipelineUnfreeze: { projectId: I.projectId, repo: I.repo, userId: 'user-maintainer' },
  },
  context: {
    devContext: { projectId: I.projectId, taskId: I.taskId },
    qaCut: { projectId: I.projectId, taskId: I.taskId },
    turnContext: { projectId: I.projectId, role: 'dev_lead' },
    correctStory: {
      projectId: I.projectId,
      storyId: I.storyId,
      actor: { kind: 'user', id: I.sessionAuthorId },
      questionId: I.questionId,
      changes: { dor: ['Archived behaviour: 410 Gone (user decision)'] },
    },
    archiveStory: { projectId: I.projectId, storyId: I.storyId, actor: { kind: 'agent', id: 'po' } },
    analytics: { projectId: I.projectId, from: '2026-11-02', to: '2026-11-29', by: 'week' },
  },
  notifier: {
    channels: { projectId: I.projectId, userId: I.sessionAuthorId },
    setChannels: {
      projectId: I.projectId,
      userId: I.sessionAuthorId,
      channels: {
        email: { address: 'ana@example.com', mode: 'immediate' },
        webhook: { url: 'https://hooks.example.com/openq', secret: 'whsec-0123456789abcdef' },
        slack: null,
      },
    },
    deliveries: { projectId: I.projectId, userId: I.sessionAuthorId, status: 'dead', limit: 20 },
    redeliver: {
      projectId: I.projectId,
      userId: I.sessionAuthorId,
      deliveryId: '0190a3b8-7c1d-7e2f-8a3b-1c2d3e4f5a70',
    },
    clockPolicy: { projectId: I.projectId, userId: I.sessionAuthorId, role: 'viewer' },
    setClockPolicy: {
      projectId: I.projectId,
      userId: 'mara',
      role: 'maintainer',
      policy: {
        dueAfter: { hours: 8 },
        reminders: [{ hours: 4 }],
        escalateAfter: { hours: 16 },
        escalateTo: 'maintainers',
      },
    },
    clockState: { projectId: I.projectId, userId: I.sessionAuthorId, role: 'developer' },
    workingTime: { userId: I.sessionAuthorId },
    setWorkingTime: {
      userId: I.sessionAuthorId,
      workingTime: { timeZone: 'America/Sao_Paulo', days: [1, 2, 3, 4, 5], start: '09:00', end: '18:00' },
    },
    engineSubscription: { engineId: 'engine-1' },
    setEngineSubscription: {
      engineId: 'engine-1',
      url: 'https://engine.example.com/openq-events',
      secret: 'whsec-0123456789abcdef',
      projects: [I.projectId],
      events: ['gate.resumed', 'question.*'],
    },
    deleteEngineSubscription: { engineId: 'engine-1' },
    slackLink: { userId: I.sessionAuthorId },
    setSlackLink: { userId: I.sessionAuthorId, slackUserId: 'U024BE7LH' },
    slackUser: { slackUserId: 'U024BE7LH' },
    language: { userId: I.sessionAuthorId },
    setLanguage: { userId: I.sessionAuthorId, language: 'pt-BR' },
    projectLanguage: { projectId: I.projectId, userId: I.sessionAuthorId },
    setProjectLanguage: {
      projectId: I.projectId,
      userId: I.sessionAuthorId,
      role: 'maintainer',
      language: 'pt-BR',
    },
  },
});

/** HTTP bodies, queries and path parameters the gateway validates. */
export const httpExamples = deepFreeze({
  answerQuestionBody: { resposta: '410 Gone' },
  acceptSuggestionBody: { aceitarSugestao: true },
  declareQuestionBody: { ...agentEventExamples['agent.question.declare'], afeta: { ...afeta } },
  agentAnswerBody: { resposta: '410 Gone', viaAgente: 'po', agentSessionId: 'sess-po-3' },
  listOpenQuestionsQuery: { status: 'all', limit: '20' },
  listMyQuestionsQuery: { who: 'mine', role: 'po,dev_lead', task: I.taskId, q: 'decisões de cache' },
  storyCorrectionBody: { questionId: I.questionId, changes: { title: 'Look up a code (archived → 410)' } },
  turnContextQuery: { role: 'criativo' },
  pipelineQueueQuery: { repo: I.repo },
  readinessParams: { action: 'confirm_architecture_ready' },
  resumeGateOverrideBody: {
    override: true,
    motivo: 'Customer confirmed 410 by phone; recorded in the ticket',
  },
  gateHistoryQuery: { limit: '10' },
  repoFreezeBody: { motivo: 'Release week' },
  withdrawQuestionBody: { motivo: 'Archived codes are out of scope for this release' },
  splitQuestionBody: { toolCallId: I.toolCallId },
  amendDecisionBody: { resposta: '404 for archived codes: they were never public' },
  acceptSuggestionsBody: {
    questionIds: ['0190a3b8-7c1d-7e2f-8a3b-1c2d3e4f5a6b', '0190a3b8-7c1d-7e2f-8a3b-1c2d3e4f5a6c'],
  },
  grantDelegationBody: { to: I.delegateId, until: '2026-12-31T18:00:00.000Z' },
});
