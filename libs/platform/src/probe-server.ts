import { Worker } from 'node:worker_threads';

/*
 * [openq] issue #27 item 5: `/healthz` and `/readyz` on a path a burst cannot queue behind. The
 * main HTTP port shares one event loop with every request: during a burst of thousands a probe
 * waits its turn (1–3 s seen), and an orchestrator may take a busy process for a dead one. This
 * answers the probes from a worker thread on a port of its own, from what the main thread tells
 * it through shared memory:
 *
 * - a heartbeat the main loop writes every `beatMs`: liveness is 200 while it is younger than
 *   `staleAfterMs` (the main loop runs, however busy), 503 `sem_batimento` once it is not — a
 *   stuck loop still fails liveness, which a probe that merely answered from elsewhere would hide;
 * - the last readiness the main thread computed (every `readyEveryMs`, with the same checks as
 *   its own `/readyz`): readiness is 200 while that is ready and the heartbeat is live.
 *
 * The worker is plain JavaScript given as a string (`eval`), so it runs the same from `dist/` and
 * under the test runner.
 */

export interface ProbeServerOptions {
  /** 0 picks a free port (tests). */
  port: number;
  host: string;
  /** What the main thread's `/readyz` would say (the service's readiness checks, shutdown). */
  ready: () => Promise<boolean>;
  beatMs?: number;
  staleAfterMs?: number;
  readyEveryMs?: number;
}

export interface ProbeServer {
  port: number;
  close(): Promise<void>;
}

const WORKER = `
const { createServer } = require('node:http');
const { parentPort, workerData } = require('node:worker_threads');
const state = new BigInt64Array(workerData.shared);
const json = (res, status, body) => {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  res.end(JSON.stringify(body));
};
const server = createServer((req, res) => {
  const path = (req.url || '/').split('?')[0];
  const age = Date.now() - Number(Atomics.load(state, 0));
  const live = age <= workerData.staleAfterMs;
  if (req.method !== 'GET' && req.method !== 'HEAD') return json(res, 405, { statusCode: 405, reason: 'metodo_nao_permitido', message: 'GET only' });
  if (path === '/healthz') {
    if (live) return json(res, 200, { status: 'ok' });
    return json(res, 503, { statusCode: 503, reason: 'sem_batimento', message: 'the main event loop has not beaten for ' + age + ' ms' });
  }
  if (path === '/readyz') {
    if (live && Atomics.load(state, 1) === 1n) return json(res, 200, { status: 'ready' });
    return json(res, 503, { statusCode: 503, reason: 'nao_pronto', message: live ? 'a dependency does not answer, or shutting down' : 'the main event loop has not beaten for ' + age + ' ms' });
  }
  json(res, 404, { statusCode: 404, reason: 'rota_nao_encontrada', message: 'this port answers /healthz and /readyz only' });
});
server.keepAliveTimeout = 5000;
server.on('error', (error) => parentPort.postMessage({ error: error.message }));
server.listen(workerData.port, workerData.host, () => parentPort.postMessage({ port: server.address().port }));
parentPort.on('message', (m) => {
  if (m !== 'close') return;
  server.close(() => parentPort.close());
  server.closeAllConnections();
});
`;

export async function startProbeServer(options: ProbeServerOptions): Promise<ProbeServer> {
  const beatMs = options.beatMs ?? 100;
  const shared = new SharedArrayBuffer(16);
  const state = new BigInt64Array(shared);
  const beat = () => Atomics.store(state, 0, BigInt(Date.now()));
  beat();
  const worker = new Worker(WORKER, {
    eval: true,
    workerData: {
      shared,
      port: options.port,
      host: options.host,
      staleAfterMs: options.staleAfterMs ?? 10_000,
    },
  });
  const beating = setInterval(beat, beatMs);
  beating.unref();
  let closed = false;
  let checking = false;
  const check = async () => {
    if (checking || closed) return;
    checking = true;
    try {
      const ready = await options.ready().catch(() => false);
      if (!closed) Atomics.store(state, 1, ready ? 1n : 0n);
    } finally {
      checking = false;
    }
  };
  const checks = setInterval(() => void check(), options.readyEveryMs ?? 1_000);
  checks.unref();
  void check();
  let port: number;
  try {
    port = await new Promise<number>((resolve, reject) => {
      worker.once('error', reject);
      worker.once('message', (m: { port?: number; error?: string }) =>
        m.port !== undefined ? resolve(m.port) : reject(new Error(`probe port: ${m.error}`)),
      );
    });
  } catch (error) {
    clearInterval(beating);
    clearInterval(checks);
    await worker.terminate();
    throw error;
  }
  worker.unref();
  return {
    port,
    async close() {
      if (closed) return;
      closed = true;
      // Not ready from now on, while the main port drains.
      Atomics.store(state, 1, 0n);
      clearInterval(beating);
      clearInterval(checks);
      const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
      worker.postMessage('close');
      await Promise.race([exited, new Promise<void>((resolve) => setTimeout(resolve, 2_000).unref())]);
      await worker.terminate();
    },
  };
}
