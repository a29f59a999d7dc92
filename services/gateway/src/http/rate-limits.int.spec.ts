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

it('refuses an address that failed authentication too often, whatever it sends next', async () => {
  const base = await gateway({ GATEWAY_RATE_LIMIT_AUTH_FAILURES: '3' });
  for (let i = 0; i < 4; i++) expect((await count(base, 'forged.token.here')).status).toBe(401);
  const next = await count(base, await token('ana'));
  expect(next).toMatchObject({ status: 429, body: { reason: 'muitas_requisicoes', limit: 'auth_failures' } });
  // Probes keep working: an orchestrator must still see the process alive.
  expect((await get(base, '/healthz')).status).toBe(200);
});

it('counts every request of an address, and gives the service token its own budget', async () => {
  const base = await gateway({ GATEWAY_RATE_LIMIT_PER_SERVICE: '2', GATEWAY_RATE_LIMIT_PER_ADDRESS: '6' });
  // No context service runs here: past the guard the route answers 503 at once (no responders).
  const internal = () =>
    get(base, '/internal/projects/p1/tasks/T1/qa-cut', { 'x-service-token': SERVICE_TOKEN });
  expect(await internal()).toMatchObject({ status: 503, body: { reason: 'servico_indisponivel' } });
  expect(await internal()).toMatchObject({ status: 503, body: { reason: 'servico_indisponivel' } });
  expect(await internal()).toMatchObject({ status: 429, body: { limit: 'service' } });
  const ana = await token('ana');
  expect((await count(base, ana)).status).toBe(200);
  expect((await count(base, ana)).status).toBe(200);
  expect((await count(base, ana)).status).toBe(200);
  expect(await count(base, ana)).toMatchObject({ status: 429, body: { limit: 'address' } });
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
