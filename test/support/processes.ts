import type { ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync, mkdtempSync, readFileSync, type WriteStream } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect, type NatsConnection } from 'nats';
import { Client } from 'pg';
import type { OpenqServiceName } from '@openq/platform';
import {
  createTestDatabase,
  freePort,
  startNatsServer,
  waitFor,
  type TestDatabase,
  type TestNatsServer,
} from '@openq/testing';
import { CLI, ROOT, spawnReplica } from '../scale/scale-support';
import { RATE_LIMITS_OFF } from './rate-limits';

/*
 * The services as separate processes, started the production way (`node dist/tools/cli.js start
 * <service>`, after `npm run build`) by the scale-out test's `spawnReplica`, against a NATS
 * server and a database of the test's own. Each process keeps its port across restarts (so the
 * test can SIGKILL and restart it while clients keep calling), and all it prints is kept in a log
 * file (the secrets test greps them).
 */

export const REPO_ROOT = ROOT;
export { CLI };
export const ALL_SERVICES: readonly OpenqServiceName[] = ['questions', 'gates', 'context', 'gateway'];
/** The four above and the notifier (issue #17), for the tests that follow notifications. */
export const WITH_NOTIFIER: readonly OpenqServiceName[] = [...ALL_SERVICES, 'notifier'];

export function assertBuilt(): void {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` first (\`npm test\` does)`);
}

/** One service in a process of its own; `start()` again after a kill runs it on the same port. */
export class ServiceProcess {
  child: ChildProcess | null = null;
  /** Starts, kills (any signal) and exits seen, for the figures. */
  starts = 0;
  kills = 0;
  readonly exits: { code: number | null; signal: NodeJS.Signals | null }[] = [];
  private exited: Promise<void> = Promise.resolve();
  private readonly log: WriteStream;
  /** The last few KiB of output, for failure messages. */
  private tail = '';

  constructor(
    readonly service: OpenqServiceName,
    readonly port: number,
    private readonly env: () => NodeJS.ProcessEnv,
    readonly logPath: string,
  ) {
    this.log = createWriteStream(logPath, { flags: 'a' });
  }

  url(path: string): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  get alive(): boolean {
    return this.child !== null && this.child.exitCode === null && this.child.signalCode === null;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** Spawns the process (it is not ready yet: see `waitReady`), with the scale-out test's helper. */
  spawn(extraEnv: NodeJS.ProcessEnv = {}): ChildProcess {
    if (this.alive) throw new Error(`${this.service} is already running`);
    const { child } = spawnReplica(this.service, this.starts, this.port, { ...this.env(), ...extraEnv });
    const keep = (chunk: Buffer) => {
      const text = chunk.toString();
      this.log.write(text);
      this.tail = (this.tail + text).slice(-6000);
    };
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
    this.exited = new Promise((resolve) =>
      child.once('exit', (code, signal) => {
        this.exits.push({ code, signal });
        resolve();
      }),
    );
    this.child = child;
    this.starts++;
    return child;
  }

  async start(extraEnv: NodeJS.ProcessEnv = {}): Promise<void> {
    this.spawn(extraEnv);
    await this.waitReady();
  }

  async waitReady(timeoutMs = 120_000): Promise<void> {
    await waitFor(
      async () => {
        if (!this.alive)
          throw new Error(
            `${this.service} exited: ${JSON.stringify(this.exits.at(-1))}\n${this.tail.slice(-3000)}`,
          );
        return (await this.status('/readyz')) === 200;
      },
      { timeoutMs, intervalMs: 50, what: `${this.service} ready on ${this.port}` },
    );
  }

  /** The HTTP status of GET `path`, or 0 when nothing answers. */
  async status(path: string): Promise<number> {
    const res = await fetch(this.url(path), { signal: AbortSignal.timeout(3000) }).catch(() => null);
    if (!res) return 0;
    await res.arrayBuffer().catch(() => undefined);
    return res.status;
  }

  /** Sends `signal` and waits for the process to be gone. */
  async kill(signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
    if (!this.alive) return;
    this.kills++;
    const exited = this.exited;
    this.child!.kill(signal);
    await exited;
  }

  /** Resolves when the current process has exited (after a SIGTERM, say). */
  waitExit(): Promise<void> {
    return this.exited;
  }

  get lastExit(): { code: number | null; signal: NodeJS.Signals | null } | undefined {
    return this.exits.at(-1);
  }

  output(): string {
    return readFileSync(this.logPath, 'utf8');
  }

  get recentOutput(): string {
    return this.tail;
  }

  async stop(): Promise<void> {
    if (this.alive) {
      const timer = setTimeout(() => this.child?.kill('SIGKILL'), 15_000);
      await this.kill('SIGTERM');
      clearTimeout(timer);
    }
    await new Promise((resolve) => this.log.end(resolve));
  }
}

/**
 * What the load, the invariants and the quiet checks of test/faults/support read a stack through:
 * a NATS connection, the database, the gateway's address and which domain services run. The
 * single-broker `ProcessStack` is one; the partition test's replicas on a 3-node cluster another.
 */
export interface StackView {
  readonly nc: NatsConnection;
  readonly db: { url: string };
  readonly gatewayUrl: string;
  readonly procs: { has(service: OpenqServiceName): boolean };
  sql<T = Record<string, unknown>>(query: string, params?: unknown[]): Promise<T[]>;
  count(query: string, params?: unknown[]): Promise<number>;
}

export interface ProcessStackOptions {
  services?: readonly OpenqServiceName[];
  /** Environment for every process (on top of the test defaults). */
  env?: Record<string, string>;
  dbPrefix?: string;
}

/**
 * NATS + database of the test's own, the four services as processes, a NATS connection and a
 * PostgreSQL client for the test to act as the engine and to read the schemas directly.
 */
export class ProcessStack implements StackView {
  readonly procs = new Map<OpenqServiceName, ServiceProcess>();
  readonly logDir = mkdtempSync(join(tmpdir(), 'openq-faults-'));
  env: Record<string, string>;

  private constructor(
    readonly nats: TestNatsServer,
    readonly db: TestDatabase,
    public nc: NatsConnection,
    readonly pg: Client,
    options: ProcessStackOptions,
  ) {
    this.env = {
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      NATS_URL: nats.url,
      DATABASE_URL: db.url,
      ...RATE_LIMITS_OFF,
      ...options.env,
    };
  }

  static async start(options: ProcessStackOptions = {}): Promise<ProcessStack> {
    assertBuilt();
    const nats = await startNatsServer();
    const db = await createTestDatabase(options.dbPrefix ?? 'openq_faults');
    // The test's own connection reconnects forever: the broker-restart test kills the server under it.
    const nc = await connect({ servers: nats.url, maxReconnectAttempts: -1, reconnectTimeWait: 250 });
    const pg = new Client({ connectionString: db.url });
    await pg.connect();
    const stack = new ProcessStack(nats, db, nc, pg, options);
    for (const service of options.services ?? ALL_SERVICES) {
      const port = await freePort();
      stack.procs.set(
        service,
        new ServiceProcess(
          service,
          port,
          () => ({ PATH: process.env.PATH, ...stack.env }),
          join(stack.logDir, `${service}.log`),
        ),
      );
    }
    // All at once: migrations (advisory lock) and stream/consumer provisioning race on purpose.
    try {
      await Promise.all([...stack.procs.values()].map((p) => p.start()));
    } catch (error) {
      await stack.stop().catch(() => undefined);
      throw error;
    }
    return stack;
  }

  proc(service: OpenqServiceName): ServiceProcess {
    const p = this.procs.get(service);
    if (!p) throw new Error(`${service} is not part of this stack`);
    return p;
  }

  get gatewayUrl(): string {
    return this.proc('gateway').url('');
  }

  all(): ServiceProcess[] {
    return [...this.procs.values()];
  }

  async sql<T = Record<string, unknown>>(query: string, params: unknown[] = []): Promise<T[]> {
    return (await this.pg.query(query, params)).rows as T[];
  }

  async count(query: string, params: unknown[] = []): Promise<number> {
    const [row] = await this.sql<{ n: string }>(query, params);
    return Number(row?.n ?? 0);
  }

  async stop(): Promise<void> {
    await Promise.all(this.all().map((p) => p.stop()));
    await this.pg.end().catch(() => undefined);
    await this.nc.close().catch(() => undefined);
    await this.nats.stop();
    await this.db.drop();
  }
}
