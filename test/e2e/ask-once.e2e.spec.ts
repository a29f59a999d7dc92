import { DataSource } from 'typeorm';
import { AgentEvent, OpenqEvent } from '@openq/contracts';
import { waitFor } from '@openq/testing';
import { SmtpSink } from '@openq/testing/smtp-sink';
import { replayQuestionProjection } from '../../services/questions/src/questions/projections/replay';
import { taskStatus } from '../support/context-helpers';
import { TestEngine } from '../support/engine';
import { Stack } from '../support/stack';

/**
 * SPEC §12.3 "Ask once" over the real stack (gateway, questions, context, notifier; NATS JetStream,
 * PostgreSQL, a real SMTP server): two agents asking the same thing in other words → one
 * question, one e-mail, one answer that reaches both askers' turns; a decided question asked
 * again → its precedent, nothing new for the person, unless the agent insists; a split gives the
 * joined asker its own question back; `openq replay` rebuilds the same askers.
 */
const P = 'askonce';
const ADDRESS = 'ana@example.com';
let stack: Stack;
let smtp: SmtpSink;
let engine: TestEngine;

beforeAll(async () => {
  smtp = await SmtpSink.start();
  stack = await Stack.start({
    services: ['questions', 'context', 'notifier'],
    env: { ...smtp.env(), NOTIFIER_POLL_MS: '50' },
  });
  engine = new TestEngine(stack.baseUrl);
});
afterAll(async () => {
  await stack?.stop();
  await smtp?.stop();
});

type Data = Record<string, unknown>;
const ana = () => stack.token('ana', P, 'viewer');
const mailsTo = () => smtp.to(ADDRESS);
const listed = async (status = 'open'): Promise<Data[]> =>
  (await stack.http('GET', `/projects/${P}/open-questions?status=${status}`, { token: ana() })).body
    .items as Data[];
const turn = async (role: string) =>
  (await stack.http('GET', `/internal/projects/${P}/turn-context?role=${role}`, { service: true })).body as {
    perguntas?: Data[];
    decisoes: Data[];
  };

it('two agents, one question: joined, one e-mail, one answer reaching both askers; replay keeps the askers', async () => {
  const put = await stack.http('PUT', `/projects/${P}/notification-channels`, {
    token: ana(),
    body: { email: { address: ADDRESS, mode: 'immediate' } },
  });
  expect(put.status).toBe(200);

  const po = await engine.client.declare(
    P,
    TestEngine.body({
      autor: 'po',
      sessionId: 's-po',
      pergunta: 'Should the login page support Google sign-in?',
    }),
  );
  expect(po.created).toBe(true);
  await waitFor(() => mailsTo().length === 1, { what: 'the e-mail of the first asking' });

  // The Architect asks the same thing in other words, through the event door.
  await stack.publishAgentEvent(AgentEvent.QuestionDeclare, P, {
    ...TestEngine.body({
      autor: 'arquiteto',
      sessionId: 's-arq',
      pergunta: 'Do we support sign-in with Google on the login page?',
    }),
    toolCallId: 'tc-arq-1',
  });
  const joined = await stack.events.waitForType<Data>(OpenqEvent.QuestionJoined, 1);
  expect(joined[0]!.data).toMatchObject({
    questionId: po.questionId,
    asker: { autor: 'arquiteto', sessionId: 's-arq', toolCallId: 'tc-arq-1' },
    similarity: expect.any(Number),
  });
  // The same again over HTTP: joined, the same id, 200.
  const again = await stack.http('POST', `/internal/projects/${P}/open-questions`, {
    service: true,
    body: TestEngine.body({
      autor: 'dev_lead',
      sessionId: 's-dev',
      pergunta: 'Google sign-in on the login page?',
    }),
  });
  expect(again).toMatchObject({ status: 200, body: { questionId: po.questionId, joined: true } });

  // A different question still gets its own e-mail: the notifier saw the join and sent nothing for it.
  await engine.declare(P, { pergunta: 'Should the login page support GitHub sign-in?', sessionId: 's-po' });
  await waitFor(() => mailsTo().length === 2, { what: 'the e-mail of the other question' });
  expect(mailsTo()).toHaveLength(2);

  const open = await listed();
  const google = open.find((q) => q['questionId'] === po.questionId)!;
  expect((google['askers'] as Data[]).map((a) => a['autor'])).toEqual(['po', 'arquiteto', 'dev_lead']);
  expect(open).toHaveLength(2);

  const ds = stack.service('questions').app.get(DataSource);
  await replayQuestionProjection(ds);
  expect(await listed()).toEqual(open);

  const answer = await stack.http('POST', `/projects/${P}/open-questions/${po.questionId}/answer`, {
    token: ana(),
    body: { resposta: 'Yes, Google only' },
  });
  expect(answer.status).toBe(200);
  for (const role of ['po', 'arquiteto', 'dev_lead'])
    await waitFor(async () => (await turn(role)).decisoes.some((d) => d['questionId'] === po.questionId), {
      what: `the decision in the ${role}'s turn`,
    });
});

it('a decided question asked again: the precedent, nothing new; insisting asks anyway', async () => {
  const first = await engine.client.declare(
    P,
    TestEngine.body({ pergunta: 'Should the mobile app work offline?', sugestao: 'Yes' }),
  );
  await stack.http('POST', `/projects/${P}/open-questions/${first.questionId}/answer`, {
    token: ana(),
    body: { aceitarSugestao: true },
  });
  const before = (await listed('all')).length;

  const asked = await stack.http('POST', `/internal/projects/${P}/open-questions`, {
    service: true,
    body: TestEngine.body({
      autor: 'arquiteto',
      pergunta: 'Does the mobile app need to work offline?',
    }),
  });
  expect(asked).toMatchObject({
    status: 200,
    body: {
      precedent: {
        questionId: first.questionId,
        pergunta: 'Should the mobile app work offline?',
        resposta: 'Yes',
        decisionEventId: expect.any(String),
        decidedAt: expect.any(String),
      },
    },
  });
  expect(asked.body.questionId).toBeUndefined();
  await stack.events.waitForType(OpenqEvent.QuestionPrecedentOffered, 1);
  expect((await listed('all')).length).toBe(before);

  // Another entity is another question; insisting (with a reason) asks anyway, and needs the reason.
  const other = await engine.client.declare(
    P,
    TestEngine.body({ pergunta: 'Should the mobile app work on tablets?' }),
  );
  expect(other.created).toBe(true);
  const insisted = await stack.http('POST', `/internal/projects/${P}/open-questions`, {
    service: true,
    body: TestEngine.body({
      pergunta: 'Does the mobile app need to work offline?',
      insistir: true,
      motivo: 'The field teams now work without network',
    }),
  });
  expect(insisted.status).toBe(201);
  const mine = (await listed()).find((q) => q['questionId'] === insisted.body.questionId);
  expect(mine).toMatchObject({
    precedentOf: first.questionId,
    motivo: 'The field teams now work without network',
  });
  const refused = await stack.http('POST', `/internal/projects/${P}/open-questions`, {
    service: true,
    body: TestEngine.body({ pergunta: 'Offline mobile app?', insistir: true }),
  });
  expect(refused.status).toBe(400);
});

it('a wrong join split by the session author restores two questions; only once', async () => {
  const first = await engine.declare(P, {
    pergunta: 'Should monthly reports be emailed to the account manager?',
  });
  const joined = await engine.client.declare(
    P,
    TestEngine.body({
      autor: 'arquiteto',
      toolCallId: 'tc-split-1',
      pergunta: 'Should the account manager receive the monthly reports by email?',
    }),
  );
  expect(joined).toMatchObject({ questionId: first, joined: true });
  const split = (user: string) =>
    stack.http('POST', `/projects/${P}/open-questions/${first}/split`, {
      token: stack.token(user, P, 'viewer'),
      body: { toolCallId: 'tc-split-1' },
    });
  expect(await split('bia')).toMatchObject({ status: 403, body: { reason: 'so_o_autor_da_sessao' } });
  const done = await split('ana');
  expect(done.status).toBe(201);
  expect(await split('ana')).toMatchObject({ status: 409, body: { reason: 'nao_ha_o_que_separar' } });
  await stack.events.waitForType(OpenqEvent.QuestionSplit, 1);

  const open = await listed();
  const a = open.find((q) => q['questionId'] === first)!;
  const b = open.find((q) => q['questionId'] === done.body.questionId)!;
  expect((a['askers'] as Data[]).map((x) => x['autor'])).toEqual(['po']);
  expect(b).toMatchObject({
    autor: 'arquiteto',
    toolCallId: 'tc-split-1',
    pergunta: 'Should the account manager receive the monthly reports by email?',
  });
  // The split asker's tool call retried now finds its own question.
  const retried = await engine.client.declare(
    P,
    TestEngine.body({ autor: 'arquiteto', toolCallId: 'tc-split-1', pergunta: 'anything' }),
  );
  expect(retried).toMatchObject({ questionId: done.body.questionId, created: false });
  await replayQuestionProjection(stack.service('questions').app.get(DataSource));
  expect(await listed()).toEqual(open);
});

it('a joined asker’s own task gets the one decision in its dev kickoff and QA cut', async () => {
  await taskStatus(stack, P, { taskId: 'T-50', status: 'todo' });
  await taskStatus(stack, P, { taskId: 'T-51', status: 'todo' });
  const first = await engine.declare(P, {
    autor: 'po',
    pergunta: 'Should invoices show the tax ID of the customer?',
    afeta: { tarefas: ['T-50'] },
  });
  // The Architect asks it for its own task too (the afeta overlap on T-50): joined.
  const joined = await engine.client.declare(
    P,
    TestEngine.body({
      autor: 'arquiteto',
      sessionId: 's-arq-2',
      pergunta: 'Do the invoices need to show the customer tax ID?',
      afeta: { regras: [], historias: [], tarefas: ['T-50', 'T-51'] },
    }),
  );
  expect(joined).toMatchObject({ questionId: first, joined: true });
  const answer = await stack.http('POST', `/projects/${P}/open-questions/${first}/answer`, {
    token: ana(),
    body: { resposta: 'Yes, below the address' },
  });
  expect(answer.status).toBe(200);
  const recorded = () =>
    stack.events
      .ofType<{ questionId: string; consequences: Data }>(OpenqEvent.DecisionRecorded)
      .find((e) => e.data.questionId === first);
  await waitFor(() => recorded() !== undefined, { what: 'the decision.recorded of the answer' });
  expect(recorded()!.data.consequences).toEqual({ regras: [], historias: [], tarefas: ['T-50', 'T-51'] });
  const context = (taskId: string, view: 'dev-context' | 'qa-cut') =>
    stack.http('GET', `/internal/projects/${P}/tasks/${taskId}/${view}`, { service: true });
  for (const view of ['dev-context', 'qa-cut'] as const)
    await waitFor(
      async () =>
        ((await context('T-51', view)).body.decisoes as Data[] | undefined)?.some(
          (d) => d['questionId'] === first && d['resposta'] === 'Yes, below the address',
        ) ?? false,
      { what: `the decision in T-51's ${view}` },
    );
  expect((await context('T-50', 'dev-context')).body.decisoes).toEqual(
    expect.arrayContaining([expect.objectContaining({ questionId: first })]),
  );
});
