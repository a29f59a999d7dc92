import { OpenqEvent } from '@openq/contracts';
import { waitFor } from '@openq/testing';
import { Stack } from '../support/stack';
import { TestEngine } from '../support/engine';

/**
 * Issue #18 "accept suggestions" in bulk, through the real stack (gateway, questions; NATS
 * JetStream and PostgreSQL): one request, a result per question, each through the same answer as
 * a click (author rule, no suggestion, already answered, withdrawn, unknown); the same batch sent
 * again with the same Idempotency-Key answers nothing twice; bad bodies are 400 and reach nothing.
 */
const P = 'projbulk';
const OTHER = 'projbulk-other';
let stack: Stack;

beforeAll(async () => {
  stack = await Stack.start({ services: ['questions', 'gates', 'context'] });
});
afterAll(() => stack.stop());

const declare = (
  project: string,
  pergunta: string,
  sugestao: string | null,
  sessionAuthorId = 'ana',
): Promise<string> =>
  new TestEngine(stack.baseUrl).declare(project, {
    sessionId: 's-bulk',
    sessionAuthorId,
    pergunta,
    sugestao,
  });

const accept = (body: unknown, key?: string, user = 'ana') =>
  stack.http('POST', `/projects/${P}/open-questions/accept-suggestions`, {
    token: stack.token(user, P, 'viewer'),
    body,
    ...(key ? { headers: { 'idempotency-key': key } } : {}),
  });

const answeredEventsOf = (questionId: string) =>
  stack.events
    .ofType<{ questionId: string }>(OpenqEvent.QuestionAnswered)
    .filter((e) => e.data.questionId === questionId);

it('a mixed batch: each question answered or refused on its own, in the order asked', async () => {
  const mine = await declare(P, 'Paginate the audit log by 50?', '50 per page');
  const bruno = await declare(P, 'Rename the export button?', 'Keep "Export"', 'bruno');
  const bare = await declare(P, 'Which colour for the badge?', null);
  const done = await declare(P, 'Archive after 90 days?', '90 days');
  const dropped = await declare(P, 'Keep the CSV export?', 'Drop it');
  const mine2 = await declare(P, 'Send the digest on Mondays?', 'Mondays at 9');
  const elsewhere = await declare(OTHER, 'Is this another project?', 'Yes');
  const unknown = '0190a3b8-7c1d-7e2f-8a3b-1c2d3e4f5a6b';

  const token = stack.token('ana', P, 'viewer');
  expect(
    await stack.http('POST', `/projects/${P}/open-questions/${done}/answer`, {
      token,
      body: { resposta: '120 days' },
    }),
  ).toMatchObject({ status: 200 });
  expect(
    await stack.http('POST', `/projects/${P}/open-questions/${dropped}/withdraw`, {
      token,
      body: { motivo: 'The export moved' },
    }),
  ).toMatchObject({ status: 200 });

  const batch = [mine, bruno, bare, done, dropped, unknown, elsewhere, mine2];
  const first = await accept({ questionIds: batch }, 'batch-key-1');
  expect(first.status).toBe(200);
  expect(first.body.results.map((r: { questionId: string }) => r.questionId)).toEqual(batch);
  expect(first.body.results).toEqual([
    { questionId: mine, status: 'answered', decisionEventId: expect.any(String) },
    { questionId: bruno, status: 'refused', reason: 'so_o_autor_da_sessao', message: expect.any(String) },
    { questionId: bare, status: 'refused', reason: 'sem_sugestao', message: expect.any(String) },
    {
      questionId: done,
      status: 'already_answered',
      reason: 'pergunta_ja_respondida',
      message: expect.any(String),
    },
    { questionId: dropped, status: 'refused', reason: 'pergunta_retirada', message: expect.any(String) },
    {
      questionId: unknown,
      status: 'refused',
      reason: 'pergunta_nao_encontrada',
      message: expect.any(String),
    },
    {
      questionId: elsewhere,
      status: 'refused',
      reason: 'pergunta_nao_encontrada',
      message: expect.any(String),
    },
    { questionId: mine2, status: 'answered', decisionEventId: expect.any(String) },
  ]);

  // The suggestion is the answer, as with a click; the decision is the one the reply named.
  const answered = await stack.http('GET', `/projects/${P}/open-questions?status=answered`, { token });
  const byId = new Map(
    (answered.body.items as { questionId: string; resposta: string; aceitouSugestao: boolean }[]).map((q) => [
      q.questionId,
      q,
    ]),
  );
  expect(byId.get(mine)).toMatchObject({ resposta: '50 per page', aceitouSugestao: true });
  expect(byId.get(mine2)).toMatchObject({ resposta: 'Mondays at 9', aceitouSugestao: true });
  expect(byId.get(done)).toMatchObject({ resposta: '120 days', aceitouSugestao: false });
  expect(byId.has(bruno)).toBe(false);
  expect(byId.has(bare)).toBe(false);
  await waitFor(() => answeredEventsOf(mine).length === 1 && answeredEventsOf(mine2).length === 1, {
    what: 'the two answers published',
  });
  expect(answeredEventsOf(mine)[0]!.data).toMatchObject({
    decisionEventId: first.body.results[0].decisionEventId,
    respondidaPor: 'ana',
    viaAgente: null,
  });

  // The same batch again with the same key (a retry after a lost reply): the first answers come
  // back as they were, nothing is answered twice, refusals are refused again.
  const retry = await accept({ questionIds: batch }, 'batch-key-1');
  expect(retry).toEqual(first);
  // With a new key it is a new request: what is answered is already answered.
  const again = await accept({ questionIds: [mine, mine2] }, 'batch-key-2');
  expect(again.body.results.map((r: { status: string }) => r.status)).toEqual([
    'already_answered',
    'already_answered',
  ]);
  // One more answered event would be one more decision: the log holds exactly one per question.
  const count = await stack.http('GET', `/projects/${P}/open-questions?status=answered`, { token });
  expect(count.body.total).toBe(3);
  expect(answeredEventsOf(mine)).toHaveLength(1);
  expect(answeredEventsOf(mine2)).toHaveLength(1);

  // Bruno accepts his own question's suggestion in bulk: only his, ana's are refused to him.
  const his = await accept({ questionIds: [bruno, bare] }, undefined, 'bruno');
  expect(his.body.results).toMatchObject([
    { questionId: bruno, status: 'answered' },
    { questionId: bare, status: 'refused', reason: 'so_o_autor_da_sessao' },
  ]);
});

describe('refusals of the request itself', () => {
  const id = (n: number) => `0190a3b8-7c1d-7e2f-8a3b-${n.toString(16).padStart(12, '0')}`;

  it.each([
    ['no body field', {}],
    ['an empty list', { questionIds: [] }],
    ['51 questions', { questionIds: Array.from({ length: 51 }, (_, i) => id(i)) }],
    ['an id that is not a UUID', { questionIds: ['T-101'] }],
    ['the same question twice', { questionIds: [id(1), id(1)] }],
    ['an unknown field', { questionIds: [id(1)], aceitarSugestao: true }],
  ])('400 corpo_invalido for %s', async (_name, body) => {
    const r = await accept(body);
    expect(r).toMatchObject({ status: 400, body: { statusCode: 400, reason: 'corpo_invalido' } });
  });

  it('400 parametro_invalido for a malformed Idempotency-Key', async () => {
    const r = await accept({ questionIds: [id(1)] }, 'x'.repeat(129));
    expect(r).toMatchObject({ status: 400, body: { reason: 'parametro_invalido' } });
  });

  it('401 without a sign-in, 403 without a role on the project', async () => {
    const anonymous = await stack.http('POST', `/projects/${P}/open-questions/accept-suggestions`, {
      body: { questionIds: [id(1)] },
    });
    expect(anonymous).toMatchObject({ status: 401, body: { reason: 'nao_autenticado' } });
    const stranger = await stack.http('POST', `/projects/${P}/open-questions/accept-suggestions`, {
      token: stack.token('ana', OTHER, 'owner'),
      body: { questionIds: [id(1)] },
    });
    expect(stranger).toMatchObject({ status: 403, body: { reason: 'sem_papel_no_projeto' } });
  });
});
