import type { AddressInfo } from 'node:net';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { connect, type NatsConnection } from 'nats';
import { startNatsServer, type TestNatsServer } from '@openq/testing';
import { loadGatewayConfig } from './config';
import { startGateway } from './gateway';
import { FakeService } from './testing/fake-service';
import { claimsFor, signJwt } from './testing/sign-jwt';

const SECRET = 'j'.repeat(40);
const SERVICE_TOKEN = 's'.repeat(40);
const QUESTION_ID = '0190a3b8-7c1d-7e2f-8a3b-1c2d3e4f5a6b';

const tokenFor = (roles: Record<string, string>, sub = 'u1') =>
  signJwt(claimsFor(sub, roles), { alg: 'HS256', secret: SECRET });
let viewer: string;
let developer: string;
let maintainer: string;

let nats: TestNatsServer;
let app: NestFastifyApplication;
let base: string;
let nc: NatsConnection;
let questions: FakeService;
let gates: FakeService;
let context: FakeService;

interface Answer {
  status: number;
  body: Record<string, unknown>;
  headers: Headers;
}

async function call(
  method: string,
  path: string,
  options: {
    token?: string;
    serviceToken?: string;
    body?: unknown;
    raw?: string;
    headers?: Record<string, string>;
  } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.serviceToken) headers['x-service-token'] = options.serviceToken;
  let body: string | undefined;
  if (options.body !== undefined || options.raw !== undefined) {
    headers['content-type'] = 'application/json';
    body = options.raw ?? JSON.stringify(options.body);
  }
  const response = await fetch(`${base}${path}`, {
    method,
    headers,
    ...(body !== undefined ? { body } : {}),
  });
  const text = await response.text();
  let parsed: Record<string, unknown> = {};
  try {
    parsed = JSON.parse(text) as Record<string, unknown>;
  } catch {
    parsed = { text };
  }
  return { status: response.status, body: parsed, headers: response.headers };
}

const ok = (data: unknown) => () => ({ ok: true as const, data });
const fail =
  (statusCode: number, reason: string, message: string, extra: Record<string, unknown> = {}) =>
  () => ({
    ok: false as const,
    error: { statusCode, reason, message, ...extra },
  });

beforeAll(async () => {
  viewer = await tokenFor({ p1: 'viewer' });
  developer = await tokenFor({ p1: 'developer' });
  maintainer = await tokenFor({ p1: 'maintainer' });
  nats = await startNatsServer();
  const config = loadGatewayConfig({
    NATS_URL: nats.url,
    OPENQ_JWT_SECRET: SECRET,
    OPENQ_SERVICE_TOKEN: SERVICE_TOKEN,
    GATEWAY_RPC_TIMEOUT_MS: '3000',
    HOST: '127.0.0.1',
  });
  app = await startGateway(config, {
    httpPort: 0,
    exitOnFailure: false,
    handleSignals: false,
    logLevel: 'silent',
  });
  base = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;
  nc = await connect({ servers: nats.url });
  questions = new FakeService(nc, 'questions');
  gates = new FakeService(nc, 'gates');
  context = new FakeService(nc, 'context');
});

afterAll(async () => {
  questions?.stop();
  gates?.stop();
  context?.stop();
  await nc?.close();
  await app?.close();
  await nats?.stop();
});

describe('operability', () => {
  it('answers /healthz, /readyz (NATS) and /metrics without credentials', async () => {
    expect(await call('GET', '/healthz')).toMatchObject({ status: 200, body: { status: 'ok' } });
    const ready = await call('GET', '/readyz');
    expect(ready).toMatchObject({
      status: 200,
      body: { status: 'ready', checks: { nats: { status: 'up' } } },
    });
    await call('GET', '/projects/p1/open-questions/count');
    const metrics = await fetch(`${base}/metrics`);
    const text = await metrics.text();
    expect(metrics.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(text).toContain('process_cpu_user_seconds_total');
    expect(text).toMatch(
      /http_request_duration_seconds_count\{service="gateway",method="GET",route="\/projects\/:projectId\/open-questions\/count",status_code="401"\} 1/,
    );
  });

  it('serves the OpenAPI document with bearer and service-token schemes, and its page', async () => {
    const doc = await call('GET', '/docs-json');
    expect(doc.status).toBe(200);
    const components = doc.body.components as { securitySchemes: Record<string, unknown> };
    expect(Object.keys(components.securitySchemes)).toEqual(
      expect.arrayContaining(['bearer', 'service-token']),
    );
    expect(Object.keys(doc.body.paths as object)).toEqual(
      expect.arrayContaining([
        '/projects/{projectId}/open-questions',
        '/internal/projects/{projectId}/open-questions',
      ]),
    );
    const page = await fetch(`${base}/docs`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('swagger-ui');
  });
});

describe('user routes', () => {
  it('lists questions with the defaults, passing who asks and the correlation id', async () => {
    const list = { items: [], total: 0, limit: 50, nextCursor: null };
    await questions.answer('list', ok(list));
    const answer = await call('GET', '/projects/p1/open-questions', {
      token: viewer,
      headers: { 'x-correlation-id': 'corr-42' },
    });
    expect(answer).toMatchObject({ status: 200, body: list });
    expect(answer.headers.get('x-correlation-id')).toBe('corr-42');
    expect(questions.last('list')).toEqual({
      payload: { projectId: 'p1', userId: 'u1', status: 'open', limit: 50 },
      headers: expect.objectContaining({ 'x-correlation-id': 'corr-42' }) as unknown as Record<
        string,
        string
      >,
    });
  });

  it('passes the query through and refuses a bad one with 400 parametro_invalido', async () => {
    await questions.answer('list', ok({ items: [], total: 0, limit: 10, nextCursor: null }));
    await call('GET', '/projects/p1/open-questions?status=all&limit=10&cursor=abc', { token: viewer });
    expect(questions.last('list')?.payload).toEqual({
      projectId: 'p1',
      userId: 'u1',
      status: 'all',
      limit: 10,
      cursor: 'abc',
    });
    expect(await call('GET', '/projects/p1/open-questions?limit=99', { token: viewer })).toMatchObject({
      status: 400,
      body: { statusCode: 400, reason: 'parametro_invalido' },
    });
    expect(await call('GET', '/projects/p1/open-questions?sort=desc', { token: viewer })).toMatchObject({
      status: 400,
      body: { reason: 'parametro_invalido' },
    });
  });

  it('accepts the token from the openq_token cookie', async () => {
    await questions.answer('count', ok({ open: 2 }));
    expect(
      await call('GET', '/projects/p1/open-questions/count', {
        headers: { cookie: `openq_token=${viewer}` },
      }),
    ).toMatchObject({ status: 200, body: { open: 2 } });
  });

  type Credentials = { token?: string; serviceToken?: string; cookie?: string };
  it.each<[string, () => Credentials | Promise<Credentials>, number, string]>([
    ['no token', () => ({}), 401, 'nao_autenticado'],
    ['a garbled token', () => ({ token: 'x.y.z' }), 401, 'nao_autenticado'],
    [
      'a token signed with another secret',
      async () => ({
        token: await signJwt(claimsFor('u1', { p1: 'owner' }), { alg: 'HS256', secret: 'q'.repeat(40) }),
      }),
      401,
      'nao_autenticado',
    ],
    ['only the service token', () => ({ serviceToken: SERVICE_TOKEN }), 401, 'nao_autenticado'],
    [
      'a role on another project only',
      async () => ({ token: await tokenFor({ p2: 'owner' }) }),
      403,
      'sem_papel_no_projeto',
    ],
  ])('refuses %s', async (_what, credentials, status, reason) => {
    const answer = await call('GET', '/projects/p1/open-questions/count', await credentials());
    expect(answer).toMatchObject({ status, body: { statusCode: status, reason } });
    expect(Object.keys(answer.body).sort()).toEqual(['message', 'reason', 'statusCode']);
  });

  it('answers by click with the caller as userId, and maps a service refusal to its status', async () => {
    const answered = {
      questionId: QUESTION_ID,
      status: 'answered',
      resposta: 'sim',
      aceitouSugestao: false,
      decisionEventId: QUESTION_ID,
      respondidaPor: 'u1',
    };
    await questions.answer('answer', ok(answered));
    expect(
      await call('POST', `/projects/p1/open-questions/${QUESTION_ID}/answer`, {
        token: viewer,
        body: { resposta: ' sim ' },
      }),
    ).toMatchObject({ status: 200, body: answered });
    expect(questions.last('answer')?.payload).toEqual({
      projectId: 'p1',
      questionId: QUESTION_ID,
      userId: 'u1',
      resposta: 'sim',
    });

    await questions.answer('answer', fail(409, 'pergunta_ja_respondida', 'already answered'));
    expect(
      await call('POST', `/projects/p1/open-questions/${QUESTION_ID}/answer`, {
        token: viewer,
        body: { aceitarSugestao: true },
      }),
    ).toEqual(
      expect.objectContaining({
        status: 409,
        body: { statusCode: 409, reason: 'pergunta_ja_respondida', message: 'already answered' },
      }),
    );
  });

  it('refuses bodies the contract does not allow, before any service sees them', async () => {
    const path = `/projects/p1/open-questions/${QUESTION_ID}/answer`;
    await questions.answer('answer', fail(500, 'should_not_be_called', 'a refused body reached the service'));
    const before = questions.count('answer');
    const unknownField = await call('POST', path, {
      token: viewer,
      body: { resposta: 'x', respondidaPor: 'u9' },
    });
    expect(unknownField).toMatchObject({ status: 400, body: { reason: 'corpo_invalido' } });
    expect(unknownField.body.message).toMatch(/^respondidaPor/);
    expect(await call('POST', path, { token: viewer, raw: '{"resposta": ' })).toMatchObject({
      status: 400,
      body: { statusCode: 400, reason: 'corpo_invalido' },
    });
    const huge = await call('POST', path, { token: viewer, body: { resposta: 'x'.repeat(65 * 1024) } });
    expect(huge).toMatchObject({ status: 413, body: { statusCode: 413, reason: 'corpo_grande_demais' } });
    expect(
      await call('POST', `/projects/p1/open-questions/not-a-uuid/answer`, {
        token: viewer,
        body: { resposta: 'x' },
      }),
    ).toMatchObject({
      status: 400,
      body: { reason: 'parametro_invalido' },
    });
    expect(
      await call('POST', path, { token: viewer, body: { resposta: 'x', aceitarSugestao: true } }),
    ).toMatchObject({ status: 400, body: { reason: 'corpo_invalido' } });
    expect(questions.count('answer')).toBe(before);
  });

  it('needs developer to resume a gate, and passes a 409 with its extra fields', async () => {
    const path = '/projects/p1/tasks/t1/gates/qa/resume';
    expect(await call('POST', path, { token: viewer })).toMatchObject({
      status: 403,
      body: { reason: 'papel_insuficiente' },
    });
    await gates.answer(
      'resume',
      fail(409, 'gate_aguarda_decisao', 'waiting on open questions', { questionIds: [QUESTION_ID] }),
    );
    expect(await call('POST', path, { token: developer })).toMatchObject({
      status: 409,
      body: { statusCode: 409, reason: 'gate_aguarda_decisao', questionIds: [QUESTION_ID] },
    });
    expect(gates.last('resume')?.payload).toEqual({
      projectId: 'p1',
      taskId: 't1',
      gate: 'qa',
      userId: 'u1',
    });
    expect(
      await call('POST', '/projects/p1/tasks/t1/gates/merge/resume', { token: developer }),
    ).toMatchObject({ status: 400, body: { reason: 'parametro_invalido' } });
  });

  it('resumes without the answer only for a maintainer or above, with a valid motivo (§11.1)', async () => {
    const path = '/projects/p1/tasks/t1/gates/qa/resume';
    const owner = await tokenFor({ p1: 'owner' }, 'o1');
    const body = { override: true, motivo: '  Customer confirmed 410 by phone  ' };
    await gates.answer('resume', fail(500, 'should_not_be_called', 'a refused override reached the service'));
    const before = gates.count('resume');
    for (const token of [viewer, developer]) {
      expect(await call('POST', path, { token, body })).toMatchObject({
        status: 403,
        body: { statusCode: 403, reason: 'papel_insuficiente' },
      });
    }
    const bad: [unknown, string][] = [
      [{ override: true }, 'motivo_invalido'],
      [{ override: true, motivo: '' }, 'motivo_invalido'],
      [{ override: true, motivo: '   ' }, 'motivo_invalido'],
      [{ override: true, motivo: 'x'.repeat(501) }, 'motivo_invalido'],
      [{ override: false, motivo: 'why' }, 'override_invalido'],
      [{ override: 'yes', motivo: 'why' }, 'override_invalido'],
      [{ motivo: 'why' }, 'override_invalido'],
      [{ override: true, motivo: 'why', by: 'someone-else' }, 'corpo_invalido'],
    ];
    for (const [sent, reason] of bad) {
      const answer = await call('POST', path, { token: maintainer, body: sent });
      expect({ sent, status: answer.status, reason: answer.body.reason }).toEqual({
        sent,
        status: 400,
        reason,
      });
    }
    expect(gates.count('resume')).toBe(before);

    // §12.1 off (the default), the policy's owner says so and the gates service refuses.
    await gates.answer('resume', ok({ ok: true }));
    await questions.answer(
      'policies-get',
      ok({ delegacao: false, overrideDeMantenedor: false, answersFor: [] }),
    );
    expect(await call('POST', path, { token: maintainer, body })).toMatchObject({ status: 200 });
    expect(gates.last('resume')?.payload).toMatchObject({ override: true, overrideAllowed: false });
    await questions.answer(
      'policies-get',
      ok({ delegacao: false, overrideDeMantenedor: true, answersFor: [] }),
    );
    for (const [token, userId] of [
      [maintainer, 'u1'],
      [owner, 'o1'],
    ] as const) {
      expect(await call('POST', path, { token, body })).toMatchObject({ status: 200, body: { ok: true } });
      expect(gates.last('resume')?.payload).toEqual({
        projectId: 'p1',
        taskId: 't1',
        gate: 'qa',
        userId,
        override: true,
        motivo: 'Customer confirmed 410 by phone',
        overrideAllowed: true,
      });
    }
    // Without override (no body, or {}) the §4 resume stands, for a developer too.
    for (const sent of [undefined, {}]) {
      expect(await call('POST', path, { token: developer, body: sent })).toMatchObject({ status: 200 });
      expect(gates.last('resume')?.payload).toEqual({
        projectId: 'p1',
        taskId: 't1',
        gate: 'qa',
        userId: 'u1',
      });
    }
  });

  it("reads a gate's history and the project's, newest first, with a bounded limit", async () => {
    await gates.answer('history', ok({ items: [], total: 0 }));
    expect(
      await call('GET', '/projects/p1/tasks/t1/gates/secops/history?limit=5', { token: viewer }),
    ).toMatchObject({ status: 200, body: { items: [], total: 0 } });
    expect(gates.last('history')?.payload).toEqual({
      projectId: 'p1',
      taskId: 't1',
      gate: 'secops',
      limit: 5,
    });
    expect(await call('GET', '/projects/p1/gate-history', { token: viewer })).toMatchObject({ status: 200 });
    expect(gates.last('history')?.payload).toEqual({ projectId: 'p1', limit: 20 });
    for (const path of ['/projects/p1/gate-history?limit=51', '/projects/p1/tasks/t1/gates/user/history']) {
      expect(await call('GET', path, { token: viewer })).toMatchObject({
        status: 400,
        body: { reason: 'parametro_invalido' },
      });
    }
  });

  it('needs maintainer to pause a pipeline task', async () => {
    await gates.answer(
      'pipeline-pause',
      ok({ taskId: 't1', pausedAt: '2026-01-01T00:00:00.000Z', pauseSource: 'operator', changed: true }),
    );
    expect(await call('POST', '/projects/p1/pipeline/tasks/t1/pause', { token: developer })).toMatchObject({
      status: 403,
      body: { reason: 'papel_insuficiente' },
    });
    expect(await call('POST', '/projects/p1/pipeline/tasks/t1/pause', { token: maintainer })).toMatchObject({
      status: 200,
      body: { changed: true },
    });
    expect(gates.last('pipeline-pause')?.payload).toEqual({ projectId: 'p1', taskId: 't1', userId: 'u1' });
  });

  it('takes a cookie-authenticated write only from the inbox (its header), whatever the body', async () => {
    await gates.answer(
      'pipeline-pause',
      ok({ taskId: 't1', pausedAt: '2026-01-01T00:00:00.000Z', pauseSource: 'operator', changed: true }),
    );
    const before = gates.count('pipeline-pause');
    const cookie = `openq_token=${maintainer}`;
    // What a sibling origin can send with fetch(…, { mode: 'no-cors', credentials: 'include' }).
    const foreign: Record<string, string>[] = [{ cookie }, { cookie, 'content-type': 'text/plain' }];
    for (const headers of foreign) {
      expect(await call('POST', '/projects/p1/pipeline/tasks/t1/pause', { headers })).toMatchObject({
        status: 403,
        body: { reason: 'origem_nao_confiavel' },
      });
    }
    expect(gates.count('pipeline-pause')).toBe(before);
    expect(
      await call('POST', '/projects/p1/pipeline/tasks/t1/pause', {
        headers: { cookie, 'x-openq-csrf': '1', 'sec-fetch-site': 'same-origin' },
      }),
    ).toMatchObject({ status: 200, body: { changed: true } });
    expect(gates.count('pipeline-pause')).toBe(before + 1);
  });

  it('answers a URL or headers over 16 KiB with the contract body, not the framework one', async () => {
    const long = await call('GET', `/projects/p1/open-questions?x=${'a'.repeat(20_000)}`, { token: viewer });
    expect(long).toMatchObject({
      status: 431,
      body: { statusCode: 431, reason: 'cabecalhos_grandes_demais' },
    });
    const header = await call('GET', '/projects/p1/open-questions', {
      token: viewer,
      headers: { 'x-padding': 'b'.repeat(20_000) },
    });
    expect(header).toMatchObject({ status: 431, body: { reason: 'cabecalhos_grandes_demais' } });
    // The server is still there for the next request.
    expect((await call('GET', '/healthz')).status).toBe(200);
  });

  it('validates the readiness action and the waiting inbox', async () => {
    expect(await call('GET', '/projects/p1/readiness/go', { token: viewer })).toMatchObject({
      status: 400,
      body: { reason: 'parametro_invalido' },
    });
    await gates.answer('waiting', ok({ items: [], total: 0 }));
    await questions.answer(
      'policies-get',
      ok({ delegacao: true, overrideDeMantenedor: false, answersFor: ['ana'] }),
    );
    expect(await call('GET', '/projects/p1/waiting', { token: viewer })).toMatchObject({
      status: 200,
      body: { total: 0 },
    });
    // §12.1 waitingForYou is the caller's: who they are and whom they answer for reach the gates service.
    expect(gates.last('waiting')?.payload).toEqual({ projectId: 'p1', userId: 'u1', answersFor: ['ana'] });
  });

  it('corrects a story as the user', async () => {
    await context.answer('correct-story', ok({ applied: true, storyId: 's1' }));
    expect(
      await call('POST', '/projects/p1/stories/s1/corrections', {
        token: developer,
        body: { changes: { title: 'New' } },
      }),
    ).toMatchObject({
      status: 200,
      body: { applied: true, storyId: 's1' },
    });
    expect(context.last('correct-story')?.payload).toEqual({
      projectId: 'p1',
      storyId: 's1',
      actor: { kind: 'user', id: 'u1' },
      changes: { title: 'New' },
    });
  });
});

describe('internal routes', () => {
  const declaration = {
    sessionId: 'sess-1',
    sessionAuthorId: 'u1',
    autor: 'po',
    pergunta: 'Archived codes: 404 or 410?',
    sugestao: '410',
    afeta: { regras: [], historias: ['s1'], tarefas: [] },
    toolCallId: 'call_1',
  };

  it('declares with 201 the first time and 200 for the same toolCallId', async () => {
    await questions.answer('declare', ok({ questionId: QUESTION_ID, created: true }));
    expect(
      await call('POST', '/internal/projects/p1/open-questions', {
        serviceToken: SERVICE_TOKEN,
        body: declaration,
      }),
    ).toEqual(expect.objectContaining({ status: 201, body: { questionId: QUESTION_ID } }));
    expect(questions.last('declare')?.payload).toEqual({
      projectId: 'p1',
      declaration: { ...declaration, origin: 'tool' },
    });
    await questions.answer('declare', ok({ questionId: QUESTION_ID, created: false }));
    expect(
      await call('POST', '/internal/projects/p1/open-questions', {
        serviceToken: SERVICE_TOKEN,
        body: declaration,
      }),
    ).toEqual(expect.objectContaining({ status: 200, body: { questionId: QUESTION_ID } }));
  });

  it('opens only with the service token, never with a user JWT', async () => {
    const owner = await tokenFor({ p1: 'owner' });
    expect(
      await call('POST', '/internal/projects/p1/open-questions', { token: owner, body: declaration }),
    ).toMatchObject({
      status: 401,
      body: { reason: 'token_de_servico_invalido' },
    });
    expect(
      await call('POST', '/internal/projects/p1/open-questions', {
        serviceToken: 'wrong',
        body: declaration,
      }),
    ).toMatchObject({
      status: 401,
      body: { reason: 'token_de_servico_invalido' },
    });
  });

  it('records an agent answer and corrects a story as agent/po', async () => {
    await questions.answer(
      'answer-by-agent',
      ok({ status: 'already_answered', questionId: QUESTION_ID, decisionEventId: QUESTION_ID }),
    );
    expect(
      await call('POST', `/internal/projects/p1/open-questions/${QUESTION_ID}/answer`, {
        serviceToken: SERVICE_TOKEN,
        body: { viaAgente: 'po' },
      }),
    ).toMatchObject({ status: 200, body: { status: 'already_answered' } });
    expect(questions.last('answer-by-agent')?.payload).toEqual({
      projectId: 'p1',
      questionId: QUESTION_ID,
      viaAgente: 'po',
    });

    await context.answer('correct-story', ok({ applied: true, storyId: 's1' }));
    await call('POST', '/internal/projects/p1/stories/s1/corrections', {
      serviceToken: SERVICE_TOKEN,
      body: { questionId: QUESTION_ID, changes: { dor: ['x'] } },
    });
    expect(context.last('correct-story')?.payload).toEqual({
      projectId: 'p1',
      storyId: 's1',
      actor: { kind: 'agent', id: 'po' },
      questionId: QUESTION_ID,
      changes: { dor: ['x'] },
    });
  });

  it('validates the turn-context role', async () => {
    await context.answer('turn-context', ok({ instruction: 'x' }));
    expect(
      await call('GET', '/internal/projects/p1/turn-context?role=po', { serviceToken: SERVICE_TOKEN }),
    ).toMatchObject({ status: 200 });
    expect(context.last('turn-context')?.payload).toEqual({ projectId: 'p1', role: 'po' });
    expect(
      await call('GET', '/internal/projects/p1/turn-context?role=qa-agent', { serviceToken: SERVICE_TOKEN }),
    ).toMatchObject({
      status: 400,
      body: { reason: 'parametro_invalido' },
    });
  });
});

describe('failures', () => {
  it('answers 503 servico_indisponivel when no service answers the subject', async () => {
    expect(await call('GET', '/projects/p1/tasks/t1/qa-cut', { token: viewer })).toMatchObject({
      status: 503,
      body: { statusCode: 503, reason: 'servico_indisponivel' },
    });
  });

  it('answers 404 rota_nao_encontrada for an unknown route', async () => {
    const answer = await call('GET', '/nowhere', { token: viewer });
    expect(answer).toMatchObject({ status: 404, body: { statusCode: 404, reason: 'rota_nao_encontrada' } });
    expect(Object.keys(answer.body).sort()).toEqual(['message', 'reason', 'statusCode']);
    const metrics = await (await fetch(`${base}/metrics`)).text();
    expect(metrics).toMatch(
      /http_request_duration_seconds_count\{service="gateway",method="GET",route="unmatched",status_code="404"\} \d+/,
    );
  });
});
