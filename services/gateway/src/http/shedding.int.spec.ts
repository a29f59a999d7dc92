import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { connect, type Msg, type NatsConnection } from 'nats';
import { startNatsServer, waitFor, type TestNatsServer } from '@openq/testing';
import { startTestGateway } from '../testing/test-gateway';
import { claimsFor, signJwt } from '../testing/sign-jwt';

/**
 * Past `GATEWAY_MAX_READS_IN_FLIGHT` reads in flight, the gateway answers 503
 * `sobrecarregado` with Retry-After at once instead of queueing; the admitted ones complete.
 */
const SECRET = 'o'.repeat(40);
let nats: TestNatsServer;
let nc: NatsConnection;
let app: NestFastifyApplication;
let base: string;
const held: Msg[] = [];

beforeAll(async () => {
  nats = await startNatsServer();
  nc = await connect({ servers: nats.url });
  // A questions service that answers only when the test says so.
  nc.subscribe('openq.questions.count', { queue: 'questions', callback: (_e, msg) => held.push(msg) });
  await nc.flush();
  ({ app, base } = await startTestGateway({
    NATS_URL: nats.url,
    OPENQ_JWT_SECRET: SECRET,
    OPENQ_SERVICE_TOKEN: 'x'.repeat(40),
    GATEWAY_MAX_READS_IN_FLIGHT: '3',
  }));
});

afterAll(async () => {
  await app?.close();
  await nc?.close();
  await nats?.stop();
});

it('sheds what exceeds the bound at once, with Retry-After, and serves the admitted ones', async () => {
  const token = await signJwt(claimsFor('ana', { p1: 'viewer' }), { alg: 'HS256', secret: SECRET });
  const ask = () =>
    fetch(`${base}/projects/p1/open-questions/count`, { headers: { authorization: `Bearer ${token}` } });
  const admitted = [ask(), ask(), ask()];
  await waitFor(() => held.length === 3, { what: 'three requests waiting on the service' });
  const shed = await Promise.all([ask(), ask()]);
  for (const response of shed) {
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('1');
    expect(await response.json()).toMatchObject({ statusCode: 503, reason: 'sobrecarregado' });
  }
  for (const msg of held.splice(0)) msg.respond(JSON.stringify({ ok: true, data: { open: 4 } }));
  for (const response of await Promise.all(admitted)) {
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ open: 4 });
  }
  // The slots are free again.
  const after = ask();
  await waitFor(() => held.length === 1, { what: 'the next request reaching the service' });
  held.shift()!.respond(JSON.stringify({ ok: true, data: { open: 5 } }));
  expect((await after).status).toBe(200);
  const metrics = await fetch(`${base}/metrics`).then((r) => r.text());
  expect(metrics).toMatch(/openq_gateway_shed_total\{kind="read"\} 2/);
});

it('sheds by event-loop delay when the process itself is saturated, and recovers; probes still answer', async () => {
  const { app: busy, base: url } = await startTestGateway({
    NATS_URL: nats.url,
    OPENQ_JWT_SECRET: SECRET,
    OPENQ_SERVICE_TOKEN: 'x'.repeat(40),
    GATEWAY_MAX_EVENT_LOOP_DELAY_MS: '50',
  });
  try {
    const token = await signJwt(claimsFor('ana', { p1: 'viewer' }), { alg: 'HS256', secret: SECRET });
    const read = () =>
      fetch(`${url}/projects/p1/open-questions/count`, { headers: { authorization: `Bearer ${token}` } });
    let shedOne: Response | null = null;
    await waitFor(
      async () => {
        // Saturate this process's event loop (what a flood of work does), then ask.
        const until = Date.now() + 300;
        while (Date.now() < until) Math.sqrt(Math.random());
        const response = await read();
        if (response.status === 503) shedOne = response;
        else await response.arrayBuffer();
        return shedOne !== null;
      },
      { what: 'a request shed while the loop is late', timeoutMs: 20_000 },
    );
    expect(shedOne!.headers.get('retry-after')).toBe('1');
    expect(await shedOne!.json()).toMatchObject({ statusCode: 503, reason: 'sobrecarregado' });
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    // Once the loop is on time again, requests go through (the count service is held: 503 no,
    // the held reply is answered below).
    const pending = waitFor(
      async () => {
        const response = await read();
        return response.status === 200;
      },
      { what: 'requests admitted again', timeoutMs: 20_000 },
    );
    const answering = setInterval(() => {
      for (const msg of held.splice(0)) msg.respond(JSON.stringify({ ok: true, data: { open: 1 } }));
    }, 20);
    try {
      await pending;
    } finally {
      clearInterval(answering);
    }
  } finally {
    await busy.close();
  }
});
