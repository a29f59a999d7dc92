import type { DevContext, QaCut, TurnContext } from '../commands/context.views';
import type { GateView, PipelineQueueSnapshot } from '../commands/gates.views';
import type { OpenQuestionView, QuestionListReply } from '../commands/questions.views';
import { ANSWER_RULE, CENTRAL_INSTRUCTION, DECISIONS_HEADING, QA_CUT_RULE } from '../texts';
import { EXAMPLE_DECLARED as declared } from './event-examples';
import { EXAMPLE_AFETA as afeta, EXAMPLE_IDS as I, clone, deepFreeze } from './fixtures';

/** Reply data examples (what the services answer, what the gateway and UI render). */

export const openQuestionViewExample: OpenQuestionView = deepFreeze({
  ...declared,
  afeta: { ...afeta },
  projectId: I.projectId,
  askers: [{ autor: declared.autor, sessionId: declared.sessionId, toolCallId: declared.toolCallId }],
  status: 'open',
  resposta: null,
  aceitouSugestao: null,
  decisionEventId: null,
  respondidaPor: null,
  viaAgente: null,
  agentSessionId: null,
  answeredAt: null,
  withdrawal: null,
  amendment: null,
  canAnswer: true,
  canAmend: false,
  inertReason: null,
});

export const questionListReplyExample: QuestionListReply = deepFreeze({
  items: [openQuestionViewExample],
  total: 1,
  limit: 50,
  nextCursor: null,
});

export const gateViewExample: GateView = deepFreeze({
  gate: 'qa',
  state: 'parked',
  parkedReason: 'user_decision',
  questionIds: [I.questionId],
  correctionCount: 1,
  maxCorrections: 3,
  waitingForYou: true,
  updatedAt: I.at,
});

export const pipelineQueueSnapshotExample: PipelineQueueSnapshot = deepFreeze({
  repo: I.repo,
  tasks: [
    {
      taskId: I.otherTaskId,
      repo: I.repo,
      order: 1,
      deps: [],
      labels: [],
      stage: 'analysis',
      status: 'in_progress',
      state: 'paused',
      pausedAt: I.at,
      pauseSource: 'engine',
      blockingReason: 'none',
      blockedBy: [],
      questionIds: [I.questionId],
    },
    {
      taskId: I.taskId,
      repo: I.repo,
      order: 2,
      deps: [I.otherTaskId],
      labels: [],
      stage: null,
      status: 'todo',
      state: 'waiting',
      pausedAt: null,
      pauseSource: null,
      blockingReason: 'dependency',
      blockedBy: [I.otherTaskId],
      questionIds: [],
    },
  ],
  total: 2,
  frozenRepos: [],
  freezes: [],
});

const decisao = {
  decisionEventId: I.decisionEventId,
  questionId: I.questionId,
  pergunta: declared.pergunta,
  resposta: '410 Gone for archived codes',
  respondidaPor: I.sessionAuthorId,
  viaAgente: null,
  decidedAt: I.at,
};

export const devContextExample: DevContext = deepFreeze({
  taskId: I.taskId,
  storyId: I.storyId,
  story: { title: 'Look up a code', rf: ['GET /:codigo returns the code'], rnf: [], dod: [], dor: [] },
  decisoes: [decisao],
  decisoesTotal: 1,
  text: `${DECISIONS_HEADING}\n- ${decisao.pergunta} → ${decisao.resposta}`,
});

export const qaCutExample: QaCut = deepFreeze({
  ...clone(devContextExample),
  cutRule: QA_CUT_RULE,
  text: `${devContextExample.text}\n\n${QA_CUT_RULE}`,
});

export const turnContextExample: TurnContext = deepFreeze({
  role: 'criativo',
  instruction: CENTRAL_INSTRUCTION,
  answerRule: ANSWER_RULE,
  openQuestions: [{ questionId: I.questionId, pergunta: declared.pergunta, sugestao: declared.sugestao }],
  openQuestionsTotal: 1,
  decisoes: [],
  decisoesTotal: 0,
  text: `${CENTRAL_INSTRUCTION}\n${ANSWER_RULE}`,
});
