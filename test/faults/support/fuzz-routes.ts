import fc from 'fast-check';
import { AgentEvent, newId } from '@openq/contracts';
import { body, idSegment, query, uuidSegment, type FuzzBody } from './fuzz-inputs';

/** Every route of the gateway with generated path, query and body; valid agent-event data per type. */

export interface FuzzRoute {
  name: string;
  method: 'GET' | 'POST';
  zone: 'user' | 'internal';
  path: fc.Arbitrary<string>;
  body?: fc.Arbitrary<FuzzBody>;
}

export interface FuzzTargetOptions {
  project: string;
  author: string;
  /** A question of the fixture (valid ids reach the services' own checks). */
  someQuestion: () => string;
  freshToolCall: () => string;
  /** The questionId a story correction cites. */
  firstQuestion: () => string;
}

export function fuzzTargets(o: FuzzTargetOptions) {
  const P = o.project;
  const AUTHOR = o.author;
  const someQuestion = o.someQuestion;
  const freshToolCall = o.freshToolCall;
  let asked = 0;
  function declareBody(toolCallId: string): Record<string, unknown> {
    return {
      sessionId: 's1',
      sessionAuthorId: AUTHOR,
      autor: 'po',
      // Numbered: SPEC §12.3 would join two declarations of one text in a project.
      pergunta: `Fuzzed question ${++asked}?`,
      sugestao: 'yes',
      afeta: { regras: ['RN-1'], historias: [], tarefas: ['T1'] },
      toolCallId,
    };
  }

  const pid = idSegment(P);
  const task = idSegment('T1');
  const story = idSegment('S1');
  const ROUTES: FuzzRoute[] = [
    {
      name: 'list',
      method: 'GET',
      zone: 'user',
      path: fc
        .tuple(pid, query({ status: ['open', 'answered', 'all'], limit: ['1', '50'], cursor: ['cDox'] }))
        .map(([p, q]) => `/projects/${p}/open-questions${q}`),
    },
    {
      name: 'count',
      method: 'GET',
      zone: 'user',
      path: pid.map((p) => `/projects/${p}/open-questions/count`),
    },
    {
      name: 'answer',
      method: 'POST',
      zone: 'user',
      path: fc
        .tuple(pid, uuidSegment(someQuestion))
        .map(([p, q]) => `/projects/${p}/open-questions/${q}/answer`),
      body: fc.oneof(body({ resposta: 'sim' }), body({ aceitarSugestao: true })),
    },
    {
      name: 'readiness',
      method: 'GET',
      zone: 'user',
      path: fc.tuple(pid, idSegment('im_ready')).map(([p, a]) => `/projects/${p}/readiness/${a}`),
    },
    {
      name: 'gates',
      method: 'GET',
      zone: 'user',
      path: fc.tuple(pid, task).map(([p, t]) => `/projects/${p}/tasks/${t}/gates`),
    },
    {
      name: 'resume gate',
      method: 'POST',
      zone: 'user',
      path: fc
        .tuple(pid, task, idSegment('qa'))
        .map(([p, t, g]) => `/projects/${p}/tasks/${t}/gates/${g}/resume`),
      body: body(null),
    },
    { name: 'waiting', method: 'GET', zone: 'user', path: pid.map((p) => `/projects/${p}/waiting`) },
    {
      name: 'dev-context',
      method: 'GET',
      zone: 'user',
      path: fc.tuple(pid, task).map(([p, t]) => `/projects/${p}/tasks/${t}/dev-context`),
    },
    {
      name: 'qa-cut',
      method: 'GET',
      zone: 'user',
      path: fc.tuple(pid, task).map(([p, t]) => `/projects/${p}/tasks/${t}/qa-cut`),
    },
    {
      name: 'correction',
      method: 'POST',
      zone: 'user',
      path: fc.tuple(pid, story).map(([p, s]) => `/projects/${p}/stories/${s}/corrections`),
      body: body({ changes: { title: 'New title', rf: ['RF-1'] }, questionId: o.firstQuestion() }),
    },
    {
      name: 'queue',
      method: 'GET',
      zone: 'user',
      path: fc.tuple(pid, query({ repo: ['web'] })).map(([p, q]) => `/projects/${p}/pipeline/queue${q}`),
    },
    {
      name: 'pause',
      method: 'POST',
      zone: 'user',
      path: fc.tuple(pid, task).map(([p, t]) => `/projects/${p}/pipeline/tasks/${t}/pause`),
      body: body(null),
    },
    {
      name: 'unpause',
      method: 'POST',
      zone: 'user',
      path: fc.tuple(pid, task).map(([p, t]) => `/projects/${p}/pipeline/tasks/${t}/resume`),
      body: body(null),
    },
    {
      name: 'declare (engine)',
      method: 'POST',
      zone: 'internal',
      path: pid.map((p) => `/internal/projects/${p}/open-questions`),
      body: fc.constant(null).chain(() => body(declareBody(freshToolCall()))),
    },
    {
      name: 'answer (agent)',
      method: 'POST',
      zone: 'internal',
      path: fc
        .tuple(pid, uuidSegment(someQuestion))
        .map(([p, q]) => `/internal/projects/${p}/open-questions/${q}/answer`),
      body: body({ viaAgente: 'po', resposta: 'sim', agentSessionId: 'a1' }),
    },
    {
      name: 'dev-context (engine)',
      method: 'GET',
      zone: 'internal',
      path: fc.tuple(pid, task).map(([p, t]) => `/internal/projects/${p}/tasks/${t}/dev-context`),
    },
    {
      name: 'qa-cut (engine)',
      method: 'GET',
      zone: 'internal',
      path: fc.tuple(pid, task).map(([p, t]) => `/internal/projects/${p}/tasks/${t}/qa-cut`),
    },
    {
      name: 'turn-context',
      method: 'GET',
      zone: 'internal',
      path: fc
        .tuple(pid, query({ role: ['po', 'criativo'] }))
        .map(([p, q]) => `/internal/projects/${p}/turn-context${q}`),
    },
    {
      // SPEC §11.4: mutated agent envelopes; whatever passes is what a consumer would accept.
      name: 'agent event (HTTP)',
      method: 'POST',
      zone: 'internal',
      path: pid.map((p) => `/internal/projects/${p}/events`),
      body: body({
        eventId: '0190a3b8-7c1d-7e2f-8a3b-f0220000e001',
        type: AgentEvent.GateActivity,
        schemaVersion: 1,
        occurredAt: '2026-12-01T00:00:00.000Z',
        projectId: P,
        correlationId: 'fuzz-http-event',
        causationId: null,
        data: { taskId: 'T1', gate: 'qa' },
      }),
    },
    {
      name: 'correction (agent/po)',
      method: 'POST',
      zone: 'internal',
      path: fc.tuple(pid, story).map(([p, s]) => `/internal/projects/${p}/stories/${s}/corrections`),
      body: body({ changes: { dod: ['done'] } }),
    },
  ];

  function validAgentData(type: string): Record<string, unknown> {
    switch (type) {
      case AgentEvent.QuestionDeclare:
        return declareBody(`fzq-${newId()}`);
      case AgentEvent.QuestionAnswer:
        return { toolCallId: 'fa-1', questionId: someQuestion(), viaAgente: 'po', resposta: 'sim' };
      case AgentEvent.QaVerdict:
        return {
          roundId: 'r1',
          taskId: 'T1',
          gate: 'qa',
          sessionId: 's1',
          sessionAuthorId: AUTHOR,
          verdicts: [
            {
              subspecialty: 'rules',
              veredito: 'needs_user_decision',
              resumo: 'r',
              itens: [],
              pergunta: 'Which?',
            },
          ],
        };
      case AgentEvent.GateStarted:
        return { taskId: 'T1', gate: 'qa', sessionId: 's1', sessionAuthorId: AUTHOR };
      case AgentEvent.GateActivity:
        return { taskId: 'T1', gate: 'qa' };
      case AgentEvent.TaskCreated:
        return { taskId: 'T1', repo: 'web', order: 1, deps: [], labels: [] };
      case AgentEvent.TaskStatus:
        return { taskId: 'T1', storyId: 'S1', status: 'in_progress' };
      case AgentEvent.StoryUpserted:
        return {
          storyId: 'S1',
          status: 'draft',
          archived: false,
          title: 't',
          rf: [],
          rnf: [],
          dod: [],
          dor: [],
          regras: [],
          taskIds: ['T1'],
        };
      default:
        return {
          taskId: 'T1',
          repo: 'web',
          labels: [],
          sessionId: 's1',
          sessionAuthorId: AUTHOR,
          package: { '01-brd.md': null },
          questions: [],
        };
    }
  }

  return { routes: ROUTES, declareBody, validAgentData };
}
