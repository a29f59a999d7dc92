import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { connect, type NatsConnection } from 'nats';
import { startNatsServer, type TestNatsServer } from '@openq/testing';
import { startTestGateway } from '../testing/test-gateway';
import { FakeService } from '../testing/fake-service';
import { claimsFor, signJwt } from '../testing/sign-jwt';

/**
 * The gateway's rate limits through real HTTP, with a real NATS (the shared store): per user,
 * per service token, per address, failed authentications, and two replicas counting together.
 */
const SECRET = 'r'.repeat(40);
const SERVICE_TOKEN = 't'.repeat(40);
const token = (sub: string) => signJwt(claimsFor(sub, { p1: 'viewer' }), { alg: 'HS256', secret: SECRET });

let nats: TestNatsServer;
let nc: NatsConnection;
let questions: FakeService;
const apps: NestFastifyApplication[] = [];

async function gateway(limits: Record<string, string>): Promise<string> {
  const { app, base } = await startTestGateway({
    NATS_URL: nats.url,
    OPENQ_JWT_SECRET: SECRET,
    OPENQ_SERVICE_TOKEN: SERVICE_TOKEN,
    ...limits,
  });
  apps.push(app);
  return base;
}

async function get(base: string, path: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${base}${path}`, { headers });
  return {
    status: response.status,
    retryAfter: response.headers.get('retry-after'),
    body: (await response.json()) as Record<string, unknown>,
  };
}

const count = (base: string, bearer: string) =>
  get(base, '/projects/p1/open-questions/count', { authorization: `Bearer ${bearer}` });

beforeAll(async () => {
  nats = await startNatsServer();
  nc = await connect({ servers: nats.url });
  questions = new FakeService(nc, 'questions');
  await questions.answer('count', () => ({ ok: true, data: { open: 1 } }));
  await questions.answer('list', () => ({ ok: true, data: { items: [], total: 0 } }));
});

afterAll(async () => {
  for (const app of apps) await app.close();
  questions?.stop();
  await nc?.close();
  await nats?.stop();
});

it('gives each signed-in user a budget; past it 429 muitas_requisicoes with Retry-After, others unaffected', async () => {
  const base = await gateway({ GATEWAY_RATE_LIMIT_PER_USER: '3' });
  const [ana, bia] = await Promise.all([token('ana'), token('bia')]);
  for (let i = 0; i < 3; i++) expect((await count(base, ana)).status).toBe(200);
  const refused = await count(base, ana);
  expect(refused).toMatchObject({
    status: 429,
    body: { statusCode: 429, reason: 'muitas_requisicoes', limit: 'user' },
  });
  expect(Number(refused.retryAfter)).toBeGreaterThanOrEqual(1);
  expect(Number(refused.retryAfter)).toBeLessThanOrEqual(60);
  expect((await count(base, bia)).status).toBe(200);
  const metrics = await fetch(`${base}/metrics`).then((r) => r.text());
  expect(metrics).toMatch(/openq_gateway_rate_limited_total\{limit="user"\} 1/);
});

it('past the failed-authentication budget refuses what fails, and never a request that authenticates', async () => {
  const base = await gateway({ GATEWAY_RATE_LIMIT_AUTH_FAILURES: '3' });
  for (let i = 0; i < 3; i++) expect((await count(base, 'forged.token.here')).status).toBe(401);
  for (let i = 0; i < 20; i++)
    expect(await count(base, 'forged.token.here')).toMatchObject({
      status: 429,
      body: { reason: 'muitas_requisicoes', limit: 'auth_failures' },
    });
  // Issue #27: the same address with a valid user token, and with the service token, is served.
  expect((await count(base, await token('ana'))).status).toBe(200);
  const internal = await get(base, '/internal/projects/p1/tasks/T1/qa-cut', {
    'x-service-token': SERVICE_TOKEN,
  });
  // No context service runs here: past the guard the route answers 503 at once (no responders).
  expect(internal).toMatchObject({ status: 503, body: { reason: 'servico_indisponivel' } });
  const wrongService = await get(base, '/internal/projects/p1/tasks/T1/qa-cut', {
    'x-service-token': 'x'.repeat(40),
  });
  expect(wrongService).toMatchObject({ status: 429, body: { limit: 'auth_failures' } });
  // Probes keep working: an orchestrator must still see the process alive.
  expect((await get(base, '/healthz')).status).toBe(200);
});

it('spends the address budget on unauthenticated traffic only, and gives the service token its own', async () => {
  const base = await gateway({ GATEWAY_RATE_LIMIT_PER_SERVICE: '2', GATEWAY_RATE_LIMIT_PER_ADDRESS: '3' });
  const internal = () =>
    get(base, '/internal/projects/p1/tasks/T1/qa-cut', { 'x-service-token': SERVICE_TOKEN });
  expect(await internal()).toMatchObject({ status: 503, body: { reason: 'servico_indisponivel' } });
  expect(await internal()).toMatchObject({ status: 503, body: { reason: 'servico_indisponivel' } });
  expect(await internal()).toMatchObject({ status: 429, body: { limit: 'service' } });
  // A signed-in user is limited by their own budget (off here), not by the address's.
  const ana = await token('ana');
  for (let i = 0; i < 6; i++) expect((await count(base, ana)).status).toBe(200);
  // No credential, or a credential that fails: the address pays.
  expect((await get(base, '/projects/p1/open-questions/count')).status).toBe(401);
  expect((await count(base, 'forged.token.here')).status).toBe(401);
  expect((await get(base, '/projects/p1/open-questions/count')).status).toBe(401);
  expect(await get(base, '/projects/p1/open-questions/count')).toMatchObject({
    status: 429,
    body: { limit: 'address' },
  });
  expect(await count(base, 'forged.token.here')).toMatchObject({ status: 429, body: { limit: 'address' } });
  // … and still not the signed-in user.
  expect((await count(base, ana)).status).toBe(200);
});

it('lets no user starve another from the same address (issue #27)', async () => {
  const base = await gateway({ GATEWAY_RATE_LIMIT_PER_USER: '5', GATEWAY_RATE_LIMIT_PER_ADDRESS: '5' });
  const [ana, bia] = await Promise.all([token('ana'), token('bia')]);
  const flood = await Promise.all(Array.from({ length: 30 }, () => count(base, ana)));
  expect(flood.filter((r) => r.status === 200)).toHaveLength(5);
  expect(flood.filter((r) => r.status === 429).every((r) => r.body.limit === 'user')).toBe(true);
  const reads = await Promise.all(Array.from({ length: 5 }, () => count(base, bia)));
  expect(reads.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
});

describe('behind a proxy (GATEWAY_TRUSTED_PROXIES)', () => {
  const via = (client: string, headers: Record<string, string> = {}) => ({
    'x-forwarded-for': client,
    ...headers,
  });
  const limits = { GATEWAY_RATE_LIMIT_AUTH_FAILURES: '3', GATEWAY_RATE_LIMIT_PER_ADDRESS: '5' };

  it('counts each client behind a trusted proxy on its own address', async () => {
    const base = await gateway({ ...limits, GATEWAY_TRUSTED_PROXIES: '127.0.0.1/32, ::1' });
    const junk = { authorization: 'Bearer forged.token.here' };
    for (let i = 0; i < 3; i++)
      expect((await get(base, '/projects/p1/open-questions/count', via('203.0.113.7', junk))).status).toBe(
        401,
      );
    expect(await get(base, '/projects/p1/open-questions/count', via('203.0.113.7', junk))).toMatchObject({
      status: 429,
      body: { limit: 'auth_failures' },
    });
    // Another person behind the same ingress: their address, their budget.
    expect((await get(base, '/projects/p1/open-questions/count', via('203.0.113.8', junk))).status).toBe(401);
    const bia = { authorization: `Bearer ${await token('bia')}` };
    expect((await get(base, '/projects/p1/open-questions/count', via('203.0.113.8', bia))).status).toBe(200);
    // The flooding client itself, once it signs in, is served too.
    const ana = { authorization: `Bearer ${await token('ana')}` };
    expect((await get(base, '/projects/p1/open-questions/count', via('203.0.113.7', ana))).status).toBe(200);
  });

  it('ignores X-Forwarded-For from a peer it does not trust', async () => {
    const base = await gateway({ ...limits, GATEWAY_TRUSTED_PROXIES: '10.0.0.0/8' });
    const junk = { authorization: 'Bearer forged.token.here' };
    for (let i = 0; i < 3; i++)
      expect(
        (await get(base, '/projects/p1/open-questions/count', via(`198.51.100.${i}`, junk))).status,
      ).toBe(401);
    // A forged header changes nothing: every request above came from this one peer.
    expect(await get(base, '/projects/p1/open-questions/count', via('198.51.100.99', junk))).toMatchObject({
      status: 429,
      body: { limit: 'auth_failures' },
    });
  });
});

it('shares the counts between replicas through NATS (GATEWAY_RATE_LIMIT_STORE=nats)', async () => {
  const limits = { GATEWAY_RATE_LIMIT_PER_USER: '4', GATEWAY_RATE_LIMIT_STORE: 'nats' };
  const [a, b] = await Promise.all([gateway(limits), gateway(limits)]);
  const caio = await token('caio');
  expect((await count(a, caio)).status).toBe(200);
  expect((await count(b, caio)).status).toBe(200);
  expect((await count(a, caio)).status).toBe(200);
  expect((await count(b, caio)).status).toBe(200);
  expect(await count(a, caio)).toMatchObject({ status: 429, body: { limit: 'user' } });
  expect(await count(b, caio)).toMatchObject({ status: 429, body: { limit: 'user' } });
});
