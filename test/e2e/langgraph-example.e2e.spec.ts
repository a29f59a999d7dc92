import { OpenqHttpClient } from '@openq/agent-sdk';
import { OpenqEvent } from '@openq/contracts';
import { DEV_SERVICE_TOKEN } from '@openq/platform';
import { waitFor } from '@openq/testing';
import {
  buildDecisionGraph,
  decide,
  waitForAnswer,
  type PendingQuestion,
} from '../../examples/langgraph/decision-graph';
import { Stack } from '../support/stack';

// examples/langgraph: a LangGraph JS graph whose human decisions are openq questions. The graph
// interrupts on a question declared in openq, the session's author answers it by click, and the
// thread resumes with that decision — against the real services, NATS and PostgreSQL.
const P = 'langgraph';
let stack: Stack;

beforeAll(async () => {
  stack = await Stack.start({ services: ['questions'] });
});
afterAll(() => stack.stop());

it('parks the graph on an openq question and resumes it with the answer given by click', async () => {
  const openq = new OpenqHttpClient({ baseUrl: stack.baseUrl, serviceToken: DEV_SERVICE_TOKEN });
  const graph = buildDecisionGraph({
    openq,
    projectId: P,
    sessionId: 's-lg',
    sessionAuthorId: 'ana',
    role: 'arquiteto',
  });
  const parks: PendingQuestion[] = [];
  const token = stack.token('ana', P, 'viewer');

  const finished = decide(
    graph,
    'thread-1',
    { taskId: 'T-export', decision: null, plan: null },
    (pending) => waitForAnswer(stack.nc, P, pending.questionId, 60_000),
    (pending) => parks.push(pending),
  );
  // The graph is parked on a question the user sees in the queue.
  const listed = await waitFor(
    async () => {
      const r = await stack.http('GET', `/projects/${P}/open-questions`, { token });
      return r.body.total === 1 ? r.body.items[0] : false;
    },
    { what: "the graph's question in the queue" },
  );
  expect(listed).toMatchObject({
    pergunta: 'Which format does the export of T-export use?',
    autor: 'arquiteto',
  });
  await waitFor(() => parks.length === 1, { what: 'the graph to park' });
  expect(parks[0]!.questionId).toBe(listed.questionId);

  const answered = await stack.http('POST', `/projects/${P}/open-questions/${listed.questionId}/answer`, {
    token,
    body: { resposta: 'JSON lines' },
  });
  expect(answered.status).toBe(200);

  const state = await finished;
  expect(state.plan).toBe('Export T-export as: JSON lines');
  expect(state.decision).toMatchObject({
    questionId: listed.questionId,
    resposta: 'JSON lines',
    respondidaPor: 'ana',
    viaAgente: null,
    decisionEventId: answered.body.decisionEventId,
  });
  // The node ran twice (park, then resume) and declared once: the toolCallId made it idempotent.
  const all = await stack.http('GET', `/projects/${P}/open-questions?status=all`, { token });
  expect(all.body.total).toBe(1);
  expect(stack.events.ofType(OpenqEvent.QuestionDeclared).filter((e) => e.projectId === P)).toHaveLength(1);
});
