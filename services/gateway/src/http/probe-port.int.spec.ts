import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { startNatsServer, waitFor, type TestNatsServer } from '@openq/testing';
import { probePortOf } from '../gateway';
import { startTestGateway } from '../testing/test-gateway';

/**
 * Issue #27 item 5: `GATEWAY_PROBE_PORT` — the gateway's `/healthz` and `/readyz` also on a port
 * of their own, answered off the main event loop (libs/platform/src/probe-server.spec.ts shows
 * them answering while the main thread is blocked), with the gateway's own readiness (NATS).
 */
let nats: TestNatsServer;
const apps: NestFastifyApplication[] = [];

beforeAll(async () => {
  nats = await startNatsServer();
});
afterAll(async () => {
  for (const app of apps) await app.close();
  await nats?.stop();
});

it('has no probe port unless asked for', async () => {
  const { app } = await startTestGateway({ NATS_URL: nats.url });
  apps.push(app);
  expect(probePortOf(app)).toBeNull();
});

it('answers the probes on their own port with the gateway’s readiness, and stops with it', async () => {
  const { app, base } = await startTestGateway({ NATS_URL: nats.url, GATEWAY_PROBE_PORT: '0' });
  const port = probePortOf(app)!;
  expect(port).toBeGreaterThan(0);
  const probe = `http://127.0.0.1:${port}`;
  expect(await (await fetch(`${probe}/healthz`)).json()).toEqual({ status: 'ok' });
  await waitFor(async () => (await fetch(`${probe}/readyz`)).status === 200, {
    what: 'the probe port ready (NATS answers)',
  });
  // The main port keeps its own probes.
  expect((await fetch(`${base}/readyz`)).status).toBe(200);
  await app.close();
  await expect(fetch(`${probe}/healthz`)).rejects.toThrow();
});
