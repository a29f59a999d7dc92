import type { AgentEventDataMap, AgentEventType } from '../events/agent-events';
import type { OpenqEventDataMap, OpenqEventType } from '../events/openq-events';
import { EXAMPLE_AFETA, EXAMPLE_IDS as I, clone, deepFreeze } from './fixtures';

const afeta = EXAMPLE_AFETA;

/** One valid `data` per agent event type. */
export const agentEventExamples: { readonly [K in AgentEventType]: AgentEventDataMap[K] } = deepFreeze({
  'agent.question.declare': {
    sessionId: I.sessionId,
    sessionAuthorId: I.sessionAuthorId,
    autor: 'criativo',
    pergunta: 'Should GET /:codigo return 404 or 410 for an archived code?',
    sugestao: '410 Gone for archived codes',
    afeta,
    toolCallId: I.toolCallId,
  },
  'agent.question.answer': {
    toolCallId: 'toolu_02Answer',
    questionId: I.questionId,
    resposta: '410 Gone',
    viaAgente: 'po',
    agentSessionId: 'sess-po-3',
  },
  'agent.question.withdraw': {
    toolCallId: 'toolu_03Withdraw',
    questionId: I.questionId,
    motivo: 'The PO settled it in the story: archived codes are out of scope',
    viaAgente: 'po',
    sessionId: 'sess-po-1',
  },
  'agent.qa.verdict': {
    roundId: I.roundId,
    taskId: I.taskId,
    gate: 'qa',
    sessionId: 'sess-exec-1',
    sessionAuthorId: I.sessionAuthorId,
    verdicts: [
      { subspecialty: 'functional', veredito: 'approved', resumo: 'All acceptance criteria pass', itens: [] },
      {
        subspecialty: 'contract',
        veredito: 'needs_user_decision',
        resumo: 'GET /:codigo for archived codes is not confirmed by the user',
        itens: ['DoR says "not confirmed by the user"'],
        pergunta: 'Archived code: 404 or 410?',
        sugestao: '410',
      },
    ],
    maxCorrections: 3,
  },
  'agent.gate.started': {
    taskId: I.taskId,
    gate: 'qa',
    sessionId: 'sess-exec-1',
    sessionAuthorId: I.sessionAuthorId,
    maxCorrections: 3,
  },
  'agent.gate.activity': { taskId: I.taskId, gate: 'qa' },
  'agent.task.created': {
    taskId: I.taskId,
    repo: I.repo,
    order: 2,
    deps: [I.otherTaskId],
    labels: ['auto-approve'],
  },
  'agent.task.status': { taskId: I.taskId, storyId: I.storyId, status: 'in_progress', stage: 'analysis' },
  'agent.story.upserted': {
    storyId: I.storyId,
    status: 'ready',
    archived: false,
    title: 'Look up a code',
    rf: ['GET /:codigo returns the code'],
    rnf: ['p95 < 200 ms'],
    dod: ['Contract tests green'],
    dor: ['Archived behaviour: not confirmed by the user'],
    regras: [I.ruleId],
    taskIds: [I.taskId],
  },
  'agent.analysis.finished': {
    taskId: I.taskId,
    repo: I.repo,
    labels: [],
    sessionId: 'sess-analyst-1',
    sessionAuthorId: I.sessionAuthorId,
    package: {
      '01-brd.md': '2026-11-05T10:00:00.000Z',
      '02-trz.md': '2026-11-05T10:05:00.000Z',
      '03-acceptance-criteria.md': null,
      '04-test-plan.yaml': null,
      '01-questions.md': '2026-11-05T10:06:00.000Z',
    },
    questions: [{ pergunta: 'Which currency rounding applies?', sugestao: 'Banker’s rounding' }],
  },
  'agent.repo.freeze': { repo: I.repo, frozen: true, motivo: 'Release week: nothing new enters analysis' },
});

/** The question of the examples, as `question.declared` records it. */
export const EXAMPLE_DECLARED = {
  questionId: I.questionId,
  sessionId: I.sessionId,
  sessionAuthorId: I.sessionAuthorId,
  autor: 'criativo',
  pergunta: 'Should GET /:codigo return 404 or 410 for an archived code?',
  sugestao: '410 Gone for archived codes',
  afeta,
  origin: 'tool',
  toolCallId: I.toolCallId,
  declaredAt: I.at,
} as const;

/** One valid `data` per openq event type. */
export const openqEventExamples: { readonly [K in OpenqEventType]: OpenqEventDataMap[K] } = deepFreeze({
  'question.declared': { ...EXAMPLE_DECLARED, afeta: { ...afeta } },
  'question.answered': {
    questionId: I.questionId,
    resposta: '410 Gone for archived codes',
    aceitouSugestao: true,
    decisionEventId: I.decisionEventId,
    respondidaPor: I.sessionAuthorId,
    viaAgente: null,
    answeredAt: I.at,
  },
  'question.withdrawn': {
    questionId: I.questionId,
    by: { kind: 'user', id: I.sessionAuthorId },
    motivo: 'Archived codes are out of scope for this release',
    withdrawnAt: I.at,
  },
  'question.joined': {
    questionId: I.questionId,
    asker: { autor: 'po', sessionId: I.sessionId, toolCallId: I.toolCallId },
    similarity: 0.8,
    asked: {
      sessionAuthorId: I.sessionAuthorId,
      pergunta: 'Archived code: should GET /:codigo answer 410 or 404?',
      sugestao: null,
      afeta: { ...afeta },
    },
    joinedAt: I.at,
  },
  'question.precedent_offered': {
    questionId: I.questionId,
    asker: { autor: 'arquiteto', sessionId: I.sessionId, toolCallId: I.toolCallId },
    decisionEventId: I.decisionEventId,
    similarity: 0.9,
    offeredAt: I.at,
  },
  'question.split': {
    questionId: I.questionId,
    newQuestionId: I.decisionEventId,
    by: I.sessionAuthorId,
    toolCallId: I.toolCallId,
    splitAt: I.at,
  },
  'question.rejected': {
    toolCallId: I.toolCallId,
    reason: 'payload_invalido',
    message: 'pergunta: pergunta must have 1 to 500 characters',
  },
  'decision.recorded': {
    decisionEventId: I.decisionEventId,
    actor: { kind: 'user', id: I.sessionAuthorId },
    context: EXAMPLE_DECLARED.pergunta,
    choice: '410 Gone for archived codes',
    consequences: { ...afeta },
    questionId: I.questionId,
    viaAgente: null,
    decidedAt: I.at,
  },
  'decision.superseded': {
    questionId: I.questionId,
    supersededDecisionEventId: I.decisionEventId,
    supersededViaAgente: 'po',
    decisionEventId: '0190a3b8-7c1d-7e2f-8a3b-1c2d3e4f5a7d',
    resposta: '404 for archived codes: they were never public',
    by: I.sessionAuthorId,
    supersededAt: I.at,
  },
  'delegation.granted': {
    grantId: I.grantId,
    projectId: I.projectId,
    from: I.sessionAuthorId,
    to: I.delegateId,
    until: '2026-12-31T18:00:00.000Z',
    grantedAt: I.at,
  },
  'delegation.revoked': {
    grantId: I.grantId,
    projectId: I.projectId,
    by: I.sessionAuthorId,
    revokedAt: I.at,
  },
  'project.policy_changed': {
    projectId: I.projectId,
    by: I.sessionAuthorId,
    motivo: 'the team answers for each other during the release week',
    delegacao: true,
    overrideDeMantenedor: false,
    changedAt: I.at,
  },
  'gate.verdict_recorded': {
    taskId: I.taskId,
    gate: 'qa',
    veredito: 'needs_user_decision',
    correctionCount: 1,
    maxCorrections: 3,
    nextAction: 'parked',
  },
  'gate.rescue_parked': {
    taskId: I.taskId,
    gate: 'qa',
    reason: 'user_decision',
    questionIds: [I.questionId],
    motivo: 'Waiting for the user to decide: Archived code: 404 or 410?',
  },
  'gate.resumed': {
    taskId: I.taskId,
    gate: 'qa',
    trigger: 'answer',
    questionIds: [I.questionId],
    decisionEventIds: [I.decisionEventId],
  },
  'gate.redispatch_requested': { taskId: I.taskId, gate: 'secops', idadeSegundos: 1200 },
  'gate.verdict_rejected': {
    taskId: I.taskId,
    gate: 'qa',
    roundId: I.roundId,
    reason: 'pergunta_nao_encontrada',
    questionId: I.questionId,
  },
  'pipeline.task_admitted': { taskId: I.taskId, repo: I.repo },
  'pipeline.needs_input': { taskId: I.taskId, repo: I.repo, questionIds: [I.questionId] },
  'pipeline.in_review': { taskId: I.taskId, repo: I.repo },
  'pipeline.advanced': { taskId: I.taskId, to: 'architecture' },
  'pipeline.analysis_incomplete': { taskId: I.taskId, repo: I.repo, missing: ['03-acceptance-criteria.md'] },
  'pipeline.task_paused': { taskId: I.taskId, source: 'engine' },
  'pipeline.task_unpaused': { taskId: I.taskId, source: 'operator' },
  'pipeline.analyst_relaunch': { taskId: I.taskId },
  'story.corrected': {
    storyId: I.storyId,
    questionId: I.questionId,
    actor: { kind: 'agent', id: 'po' },
    changes: { dor: ['Archived behaviour: 410 Gone (user decision)'] },
  },
  'pipeline.repo_frozen': { repo: I.repo, by: 'user-maintainer', motivo: 'Release week' },
  'pipeline.repo_unfrozen': { repo: I.repo, by: 'user-maintainer' },
  'story.archived': { storyId: I.storyId, actor: { kind: 'user', id: I.sessionAuthorId } },
});

/** A mutable copy of the example payload of an event type. */
export function eventExample<T extends AgentEventType | OpenqEventType>(
  type: T,
): T extends AgentEventType ? AgentEventDataMap[T] : T extends OpenqEventType ? OpenqEventDataMap[T] : never {
  const examples: Record<string, unknown> = { ...agentEventExamples, ...openqEventExamples };
  return clone(examples[type]) as never;
}
