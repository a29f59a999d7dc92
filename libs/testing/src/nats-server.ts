import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'nats';
import { waitFor } from './wait-for';

export interface TestNatsServer {
  url: string;
  port: number;
  /** Kills the server (SIGKILL) keeping its store, as a crash would. */
  kill(): Promise<void>;
  /** Starts it again on the same port and store. */
  start(): Promise<void>;
  stop(): Promise<void>;
}

const CANDIDATES = [
  process.env.NATS_SERVER_BIN,
  '/usr/sbin/nats-server',
  '/usr/bin/nats-server',
  '/usr/local/bin/nats-server',
];

export function natsServerBinary(): string {
  const found = CANDIDATES.find((p): p is string => !!p && existsSync(p));
  if (!found)
    throw new Error('nats-server is not installed: `apt-get install nats-server` (or set NATS_SERVER_BIN)');
  return found;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      srv.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/**
 * A real NATS JetStream server of the test's own (random port, temporary store), so that
 * every test run has streams and consumers nobody else touches.
 */
export async function startNatsServer(): Promise<TestNatsServer> {
  const port = await freePort();
  const storeDir = mkdtempSync(join(tmpdir(), 'openq-nats-'));
  const url = `nats://127.0.0.1:${port}`;
  let child: ChildProcess | null = null;

  const start = async (): Promise<void> => {
    child = spawn(natsServerBinary(), ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', storeDir], {
      stdio: 'ignore',
    });
    await waitFor(
      async () => {
        const nc = await connect({ servers: url, reconnect: false, timeout: 500 }).catch(() => null);
        if (!nc) return false;
        const ok = await nc.jetstreamManager().then(
          () => true,
          () => false,
        );
        await nc.close();
        return ok;
      },
      { timeoutMs: 15_000, intervalMs: 50, what: `nats-server on ${url}` },
    );
  };
  const kill = async (): Promise<void> => {
    const c = child;
    child = null;
    if (!c || c.exitCode !== null) return;
    const exited = new Promise((r) => c.once('exit', r));
    c.kill('SIGKILL');
    await exited;
  };
  await start();
  return {
    url,
    port,
    kill,
    start,
    stop: async () => {
      await kill();
      rmSync(storeDir, { recursive: true, force: true });
    },
  };
}
