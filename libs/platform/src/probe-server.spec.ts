import { Worker } from 'node:worker_threads';
import { startProbeServer, type ProbeServer } from './probe-server';

/*
 * Issue #27 item 5: the probes answered off the main event loop. The client runs in a worker
 * thread of its own, so it can ask while this (the main) thread is blocked on purpose — as a
 * burst would keep it busy — and the answers say what the probe saw then.
 */

const servers: ProbeServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

async function probe(options: Parameters<typeof startProbeServer>[0]): Promise<ProbeServer> {
  const server = await startProbeServer(options);
  servers.push(server);
  return server;
}

const get = async (port: number, path: string) => {
  const res = await fetch(`http://127.0.0.1:${port}${path}`);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

/** Blocks this thread for `ms` (what a burst does to the main loop), without yielding. */
function block(ms: number): number {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    // busy
  }
  return Date.now();
}

/**
 * Asks `path` from a worker thread `afterMs` after it is told to, and reports the status and
 * when the answer came; the request is made while this thread is blocked.
 */
function askDuringBlock(port: number, path: string, afterMs: number, blockMs: number) {
  const client = new Worker(
    `const { parentPort, workerData } = require('node:worker_threads');
     const http = require('node:http');
     parentPort.once('message', () => setTimeout(() => {
       http.get({ host: '127.0.0.1', port: workerData.port, path: workerData.path }, (res) => {
         let body = '';
         res.on('data', (c) => (body += c));
         res.on('end', () => parentPort.postMessage({ status: res.statusCode, body, at: Date.now() }));
       });
     }, workerData.afterMs));
     parentPort.postMessage('ready');`,
    { eval: true, workerData: { port, path, afterMs } },
  );
  return new Promise<{ status: number; body: string; at: number; blockEnded: number }>((resolve, reject) => {
    client.once('error', reject);
    client.once('message', () => {
      client.postMessage('go');
      const blockEnded = block(blockMs);
      client.once('message', (answer: { status: number; body: string; at: number }) => {
        void client.terminate();
        resolve({ ...answer, blockEnded });
      });
    });
  });
}

it('answers liveness and readiness while the main thread is blocked', async () => {
  const server = await probe({ port: 0, host: '127.0.0.1', ready: async () => true, readyEveryMs: 50 });
  expect(await get(server.port, '/healthz')).toEqual({ status: 200, body: { status: 'ok' } });
  // The first readiness check runs as the probe starts.
  expect(await get(server.port, '/readyz')).toEqual({ status: 200, body: { status: 'ready' } });
  for (const path of ['/healthz', '/readyz']) {
    const answer = await askDuringBlock(server.port, path, 50, 1_000);
    expect(answer.status).toBe(200);
    // The answer came while the main thread was still blocked.
    expect(answer.at).toBeLessThan(answer.blockEnded);
  }
  expect(await get(server.port, '/metrics')).toMatchObject({
    status: 404,
    body: { reason: 'rota_nao_encontrada' },
  });
});

it('fails liveness once the main loop has stopped beating, and recovers when it beats again', async () => {
  const server = await probe({ port: 0, host: '127.0.0.1', ready: async () => true, staleAfterMs: 200 });
  const answer = await askDuringBlock(server.port, '/healthz', 600, 1_200);
  expect(answer.status).toBe(503);
  expect(JSON.parse(answer.body)).toMatchObject({ reason: 'sem_batimento' });
  // Beating again: live again.
  let status = 0;
  while (status !== 200) status = (await get(server.port, '/healthz')).status;
});

it('says not ready while the service is not, and from the moment it closes', async () => {
  let ready = false;
  const server = await probe({ port: 0, host: '127.0.0.1', ready: async () => ready, readyEveryMs: 20 });
  expect(await get(server.port, '/readyz')).toMatchObject({ status: 503, body: { reason: 'nao_pronto' } });
  ready = true;
  let status = 0;
  while (status !== 200) status = (await get(server.port, '/readyz')).status;
  const port = server.port;
  await server.close();
  await expect(fetch(`http://127.0.0.1:${port}/readyz`)).rejects.toThrow();
});
