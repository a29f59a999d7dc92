import { AgentEvent, OpenqEvent } from '@openq/contracts';
import { waitFor } from '@openq/testing';
import { Stack } from '../support/stack';

const P = 'routes';
let stack: Stack;
beforeAll(async () => {
  stack = await Stack.start({ services: ['questions'] });
});
afterAll(() => stack.stop());

let asked = 0;
// Numbered: §12.3 would join two declarations of one text in a project (ask once).
const body = (toolCallId: string, extra: Record<string, unknown> = {}) => ({
  sessionId: 's1',
  sessionAuthorId: 'ana',
  autor: 'po',
  pergunta: `Which currency? (${++asked})`,
  sugestao: 'BRL',
  afeta: { regras: [], historias: [], tarefas: ['T9'] },
  toolCallId,
  ...extra,
});
const declare = (toolCallId: string, extra: Record<string, unknown> = {}, project = P) =>
  stack.http('POST', `/internal/projects/${project}/open-questions`, {
    service: true,
    body: body(toolCallId, extra),
  });
const ana = () => stack.token('ana', P, 'viewer');
const answer = (qid: string, b: unknown, token = ana(), project = P) =>
  stack.http('POST', `/projects/${project}/open-questions/${qid}/answer`, { token, body: b });

describe('the internal declare route', () => {
  it('answers 201 with a questionId, and 200 with the same id for the same toolCallId', async () => {
    const first = await declare('r-1');
    expect(first.status).toBe(201);
    expect(first.body.questionId).toMatch(/^[0-9a-f-]{36}$/);
    const again = await declare('r-1');
    expect(again).toEqual({ status: 200, body: { questionId: first.body.questionId } });
  });

  it('names the failing field and writes nothing', async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ pergunta: 'x'.repeat(501) }, /^pergunta/],
      [{ pergunta: '   ' }, /^pergunta/],
      [{ sugestao: 'y'.repeat(301) }, /^sugestao/],
      [{ autor: 'qa-agent' }, /^autor/],
      [
        { afeta: { regras: [], historias: [], tarefas: Array.from({ length: 51 }, (_, i) => `T${i}`) } },
        /^afeta/,
      ],
      [{ extra: 1 }, /^extra/],
    ];
    for (const [extra, field] of cases) {
      const r = await declare(`bad-${Math.random()}`, extra);
      expect(r.status).toBe(400);
      expect(r.body.reason).toBe('corpo_invalido');
      expect(r.body.message).toMatch(field);
    }
    const list = await stack.http('GET', `/projects/${P}/open-questions?status=all`, { token: ana() });
    expect(list.body.items.every((q: { toolCallId: string }) => !q.toolCallId.startsWith('bad-'))).toBe(true);
  });

  it('is closed to user tokens, and user routes are closed to the service token', async () => {
    const r = await stack.http('POST', `/internal/projects/${P}/open-questions`, {
      token: stack.token('ana', P, 'owner'),
      body: body('u-1'),
    });
    expect(r.status).toBe(401);
    const u = await stack.http('GET', `/projects/${P}/open-questions`, { service: true });
    expect(u).toMatchObject({ status: 401, body: { reason: 'nao_autenticado' } });
  });
});

describe('answering by click', () => {
  it('refuses in the documented order and accepts exactly one body shape', async () => {
    const { body: q } = await declare('c-1', { sugestao: null });
    expect((await answer(q.questionId, {})).body.reason).toBe('corpo_invalido');
    expect((await answer(q.questionId, { resposta: 'a', aceitarSugestao: true })).body.reason).toBe(
      'corpo_invalido',
    );
    expect(await answer(q.questionId, { aceitarSugestao: true })).toMatchObject({
      status: 400,
      body: { reason: 'sem_sugestao' },
    });
    expect(await answer(q.questionId, { resposta: 'x' }, stack.token('bia', P, 'owner'))).toMatchObject({
      status: 403,
      body: { reason: 'so_o_autor_da_sessao' },
    });
    expect(await answer('01a22ae8-0000-7000-8000-000000000000', { resposta: 'x' })).toMatchObject({
      status: 404,
      body: { reason: 'pergunta_nao_encontrada' },
    });
    expect(await answer('not-a-uuid', { resposta: 'x' })).toMatchObject({
      status: 400,
      body: { reason: 'parametro_invalido' },
    });
  });

  it('hides a question of another project behind the same 404', async () => {
    const { body: q } = await declare('other-1', {}, 'elsewhere');
    const missing = await answer('01a22ae8-0000-7000-8000-000000000001', { resposta: 'x' });
    const foreign = await answer(q.questionId, { resposta: 'x' });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual(missing.body);
  });

  it('lets exactly one of 50 concurrent clicks win; the rest get 409', async () => {
    const { body: q } = await declare('race-click');
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) => answer(q.questionId, { resposta: `answer ${i}` })),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(
      results.filter((r) => r.status === 409 && r.body.reason === 'pergunta_ja_respondida'),
    ).toHaveLength(49);
    await waitFor(() =>
      stack.events
        .ofType<{ questionId: string }>(OpenqEvent.QuestionAnswered)
        .some((e) => e.data.questionId === q.questionId),
    );
    const events = () =>
      stack.events
        .ofType<{ questionId: string }>(OpenqEvent.QuestionAnswered)
        .filter((e) => e.data.questionId === q.questionId);
    await stack.service('questions').server.outboxRelay!.flush();
    expect(events()).toHaveLength(1);
  });
});

describe('answering by click with an Idempotency-Key', () => {
  const keyed = (qid: string, b: unknown, key: string, token = ana()) =>
    stack.http('POST', `/projects/${P}/open-questions/${qid}/answer`, {
      token,
      body: b,
      headers: { 'idempotency-key': key },
    });
  const answeredEvents = (qid: string) =>
    stack.events
      .ofType<{ questionId: string }>(OpenqEvent.QuestionAnswered)
      .filter((e) => e.data.questionId === qid);

  it('gives a retried request its first answer back (200, same decision), once in the log', async () => {
    const { body: q } = await declare('key-retry');
    const first = await keyed(q.questionId, { resposta: 'EUR' }, 'k-retry-1');
    expect(first).toMatchObject({
      status: 200,
      body: { status: 'answered', resposta: 'EUR', respondidaPor: 'ana' },
    });
    const retry = await keyed(q.questionId, { resposta: 'EUR' }, 'k-retry-1');
    expect(retry).toEqual(first);
    // Without the key, or with another key, the question is simply already answered.
    expect((await answer(q.questionId, { resposta: 'EUR' })).status).toBe(409);
    expect((await keyed(q.questionId, { resposta: 'EUR' }, 'k-retry-2')).status).toBe(409);
    await stack.service('questions').server.outboxRelay!.flush();
    await waitFor(() => answeredEvents(q.questionId).length > 0);
    expect(answeredEvents(q.questionId)).toHaveLength(1);
  });

  it('refuses the key with another request (422), and a malformed key (400), writing nothing', async () => {
    const { body: q } = await declare('key-reuse');
    const { body: other } = await declare('key-reuse-other');
    expect((await keyed(q.questionId, { aceitarSugestao: true }, 'k-reuse')).status).toBe(200);
    const otherBody = await keyed(q.questionId, { resposta: 'something else' }, 'k-reuse');
    expect(otherBody).toMatchObject({ status: 422, body: { reason: 'idempotency_key_reutilizada' } });
    const otherQuestion = await keyed(other.questionId, { aceitarSugestao: true }, 'k-reuse');
    expect(otherQuestion).toMatchObject({ status: 422, body: { reason: 'idempotency_key_reutilizada' } });
    for (const bad of ['', 'x'.repeat(129), 'has space', 'ção']) {
      const r = await stack.http('POST', `/projects/${P}/open-questions/${other.questionId}/answer`, {
        token: ana(),
        body: { aceitarSugestao: true },
        headers: { 'idempotency-key': bad },
      });
      expect(r).toMatchObject({ status: 400, body: { reason: 'parametro_invalido' } });
    }
    const list = await stack.http('GET', `/projects/${P}/open-questions?status=open&limit=50`, {
      token: ana(),
    });
    expect(list.body.items.map((i: { questionId: string }) => i.questionId)).toContain(other.questionId);
  });

  it('answers 20 concurrent copies of one keyed request with the same decision', async () => {
    const { body: q } = await declare('key-race');
    const results = await Promise.all(
      Array.from({ length: 20 }, () => keyed(q.questionId, { resposta: 'BRL' }, 'k-race')),
    );
    expect(results.map((r) => r.status)).toEqual(Array.from({ length: 20 }, () => 200));
    expect(new Set(results.map((r) => r.body.decisionEventId)).size).toBe(1);
    await stack.service('questions').server.outboxRelay!.flush();
    await waitFor(() => answeredEvents(q.questionId).length > 0);
    expect(answeredEvents(q.questionId)).toHaveLength(1);
  });
});

describe('answering by agent (ADR 0258)', () => {
  const agentAnswer = (qid: string, b: Record<string, unknown>) =>
    stack.http('POST', `/internal/projects/${P}/open-questions/${qid}/answer`, { service: true, body: b });

  it('takes the suggestion without resposta, keeps the session author as respondidaPor, and never 409s', async () => {
    const { body: q } = await declare('agent-1');
    const first = await agentAnswer(q.questionId, { viaAgente: 'arquiteto' });
    expect(first).toMatchObject({ status: 200, body: { status: 'answered', questionId: q.questionId } });
    const second = await agentAnswer(q.questionId, { viaAgente: 'po', resposta: 'other' });
    expect(second).toMatchObject({
      status: 200,
      body: { status: 'already_answered', decisionEventId: first.body.decisionEventId, closedAs: 'answered' },
    });
    const list = await stack.http('GET', `/projects/${P}/open-questions?status=answered`, { token: ana() });
    const item = list.body.items.find((i: { questionId: string }) => i.questionId === q.questionId);
    expect(item).toMatchObject({
      resposta: 'BRL',
      aceitouSugestao: true,
      respondidaPor: 'ana',
      viaAgente: 'arquiteto',
      canAnswer: false,
    });
  });

  it('refuses without resposta nor suggestion, and 404s unknown questions', async () => {
    const { body: q } = await declare('agent-2', { sugestao: null });
    expect(await agentAnswer(q.questionId, { viaAgente: 'po' })).toMatchObject({
      status: 400,
      body: { reason: 'sem_resposta_nem_sugestao' },
    });
    expect(
      await agentAnswer('01a22ae8-0000-7000-8000-000000000002', { viaAgente: 'po', resposta: 'x' }),
    ).toMatchObject({ status: 404 });
    expect(await agentAnswer(q.questionId, { viaAgente: 'qa-agent', resposta: 'x' })).toMatchObject({
      status: 400,
      body: { reason: 'corpo_invalido' },
    });
  });

  it('lets one of 50 concurrent agent answers win; the others are already_answered', async () => {
    const { body: q } = await declare('race-agent');
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        agentAnswer(q.questionId, { viaAgente: 'dev_lead', resposta: `r${i}` }),
      ),
    );
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect(results.filter((r) => r.body.status === 'answered')).toHaveLength(1);
    expect(new Set(results.map((r) => r.body.decisionEventId)).size).toBe(1);
  });

  it('tells the engine about refused tool calls with question.rejected', async () => {
    await stack.publishAgentEvent(AgentEvent.QuestionAnswer, P, {
      toolCallId: 'rej-1',
      questionId: '01a22ae8-0000-7000-8000-000000000003',
      viaAgente: 'po',
      resposta: 'x',
    });
    await stack.publishAgentEvent(AgentEvent.QuestionDeclare, P, body('rej-2', { pergunta: '' }));
    const rejected = await waitFor(() => {
      const r = stack.events.ofType<{ toolCallId: string; reason: string; message: string }>(
        OpenqEvent.QuestionRejected,
      );
      return r.length >= 2 ? r : false;
    });
    expect(rejected.find((e) => e.data.toolCallId === 'rej-1')!.data.reason).toBe('pergunta_nao_encontrada');
    expect(rejected.find((e) => e.data.toolCallId === 'rej-2')!.data).toMatchObject({
      reason: 'payload_invalido',
      message: expect.stringMatching(/^pergunta/),
    });
  });
});

describe('reading', () => {
  it('pages oldest first with a stable cursor and the total, and validates parameters', async () => {
    const project = 'paging';
    for (let i = 0; i < 7; i++) await declare(`pg-${i}`, { pergunta: `Q${i}` }, project);
    const token = stack.token('ana', project, 'viewer');
    const first = await stack.http('GET', `/projects/${project}/open-questions?limit=3`, { token });
    expect(first.body).toMatchObject({ total: 7, limit: 3 });
    expect(first.body.items.map((i: { pergunta: string }) => i.pergunta)).toEqual(['Q0', 'Q1', 'Q2']);
    const second = await stack.http(
      'GET',
      `/projects/${project}/open-questions?limit=3&cursor=${first.body.nextCursor}`,
      { token },
    );
    expect(second.body.items.map((i: { pergunta: string }) => i.pergunta)).toEqual(['Q3', 'Q4', 'Q5']);
    for (const bad of ['limit=0', 'limit=51', 'status=closed', 'cursor=%21%21']) {
      const r = await stack.http('GET', `/projects/${project}/open-questions?${bad}`, { token });
      expect(r).toMatchObject({ status: 400, body: { reason: 'parametro_invalido' } });
    }
    expect(await stack.http('GET', `/projects/${project}/open-questions/count`, { token })).toEqual({
      status: 200,
      body: { open: 7 },
    });
    expect(
      await stack.http('GET', `/projects/${project}/open-questions`, {
        token: stack.token('ana', 'another', 'owner'),
      }),
    ).toMatchObject({ status: 403, body: { reason: 'sem_papel_no_projeto' } });
  });

  it('warns on readiness without blocking, with the right N', async () => {
    const project = 'ready';
    const token = stack.token('ana', project, 'viewer');
    const none = await stack.http('GET', `/projects/${project}/readiness/im_ready`, { token });
    expect(none.body).toEqual({
      action: 'im_ready',
      openQuestions: 0,
      blocking: false,
      notice: null,
      queue: `/projects/${project}/open-questions`,
    });
    await declare('rd-1', {}, project);
    const one = await stack.http('GET', `/projects/${project}/readiness/confirm_architecture_ready`, {
      token,
    });
    expect(one.body.notice).toBe('1 question is still open — answer');
    await declare('rd-2', {}, project);
    const two = await stack.http('GET', `/projects/${project}/readiness/im_ready`, { token });
    expect(two.body).toMatchObject({
      openQuestions: 2,
      blocking: false,
      notice: '2 questions are still open — answer',
    });
    expect(await stack.http('GET', `/projects/${project}/readiness/ship_it`, { token })).toMatchObject({
      status: 400,
    });
  });
});
