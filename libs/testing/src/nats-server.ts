import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
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

/**
 * The ports the kernel hands outgoing connections (Linux's `ip_local_port_range`): a port chosen
 * there may be taken by any process's next connection — to PostgreSQL, to NATS — between the
 * moment it is found free and the moment a spawned server binds it (EADDRINUSE, seen in CI), or
 * while a killed service is down and before it binds the same port again.
 */
function ephemeralPorts(): [number, number] {
  try {
    const [low, high] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/);
    if (Number(low) > 0 && Number(high) >= Number(low)) return [Number(low), Number(high)];
  } catch {
    // Not Linux: its usual range.
  }
  return [32768, 60999];
}

/** Below the ephemeral range, above the well-known and registered ports most daemons use. */
const OWN_PORTS = ((): [number, number] => {
  const [low, high] = ephemeralPorts();
  if (low > 12000) return [10000, low - 1];
  if (high < 60000) return [high + 1, 65535];
  return [10000, 65535]; // a range of its own for everything: only the bind check is left
})();

function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.unref();
    srv.once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });
}

/** The ports this process handed out: a server spawned a moment ago may not have bound its own yet. */
const handedOut = new Set<number>();

/**
 * A port for a server a test starts (a nats-server, a service process), free now and outside the
 * kernel's ephemeral range, so no outgoing connection takes it before the server binds it; chosen
 * at random, so the suites running side by side rarely try the same one, and never one this
 * process handed out before (ten replicas spawned in a row each check before any of them binds:
 * EADDRINUSE, seen in CI).
 */
export async function freePort(): Promise<number> {
  const [low, high] = OWN_PORTS;
  for (let attempt = 0; attempt < 200; attempt++) {
    const port = low + Math.floor(Math.random() * (high - low + 1));
    if (handedOut.has(port)) continue;
    if (await bindable(port)) {
      handedOut.add(port);
      return port;
    }
  }
  throw new Error(`no free port between ${low} and ${high} after 200 tries`);
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
