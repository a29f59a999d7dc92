import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { waitFor } from '@openq/testing';

// Issue #16 §1: `openq start` on a machine where nothing listens. The real CLI (compiled: `npm test`
// builds first) runs in a network namespace of its own (`unshare -n`, as root, with only `lo` up),
// so neither the machine's PostgreSQL nor its NATS answer there and no DATABASE_URL / NATS_URL is
// set: it must start an embedded PostgreSQL and a private nats-server under OPENQ_HOME. A driver
// in the same namespace (`nsenter --net`) plays one park → answer → resume through it. SIGTERM
// and `openq stop` must each leave no process behind; the second start reuses the data.

const ROOT = join(__dirname, '../..');
const CLI = join(ROOT, 'dist/tools/cli.js');
const DRIVER = join(ROOT, 'dist/test/support/park-answer-resume.js');
const run = promisify(execFile);

let home: string;
let openqHome: string;

/** The environment of a fresh machine: no URLs, the embedded servers' home in a temporary folder. */
function freshEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, OPENQ_HOME: openqHome, PORT: '3000' };
  for (const name of ['DATABASE_URL', 'NATS_URL', 'NODE_ENV', 'LOG_LEVEL', 'JEST_WORKER_ID'])
    delete env[name];
  return env;
}

class NamespacedOpenq {
  out = '';
  readonly exited: Promise<number | null>;

  private constructor(readonly child: ChildProcess) {
    child.stdout!.on('data', (b: Buffer) => (this.out += b.toString()));
    child.stderr!.on('data', (b: Buffer) => (this.out += b.toString()));
    this.exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
  }

  /** `ip link set lo up`, then the CLI in place of the shell (same pid: the namespace's first process). */
  static start(): NamespacedOpenq {
    const child = spawn(
      'unshare',
      ['-n', 'sh', '-c', `ip link set lo up && exec "${process.execPath}" "${CLI}" start`],
      {
        cwd: home,
        env: freshEnv(),
        stdio: ['ignore', 'pipe', 'pipe'],
        // A process group of its own, as a terminal gives a command: Ctrl-C is a SIGINT to the group.
        detached: true,
      },
    );
    return new NamespacedOpenq(child);
  }

  async ready(): Promise<void> {
    await waitFor(() => this.out.includes('openq is running') || this.child.exitCode !== null, {
      timeoutMs: 90_000,
      intervalMs: 100,
      what: `openq to start; output so far:\n${this.out}`,
    });
    if (this.child.exitCode !== null) throw new Error(`openq exited (${this.child.exitCode}):\n${this.out}`);
  }

  /** The driver, in this process's network namespace. */
  async parkAnswerResume(project: string): Promise<Record<string, unknown>> {
    const { stdout } = await run(
      'nsenter',
      [`--net=/proc/${this.child.pid}/ns/net`, process.execPath, DRIVER, project],
      {
        env: freshEnv(),
        timeout: 60_000,
      },
    );
    return JSON.parse(stdout.trim().split('\n').pop()!) as Record<string, unknown>;
  }
}

/** Processes whose command line names the test's home (the embedded PostgreSQL and nats-server do). */
function processesUnder(dir: string): string[] {
  const found: string[] = [];
  for (const pid of readdirSync('/proc').filter((n) => /^\d+$/.test(n))) {
    try {
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
      if (cmdline.includes(dir)) found.push(`${pid}: ${cmdline}`);
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

beforeAll(() => {
  if (process.getuid?.() !== 0)
    throw new Error('this test needs root (unshare -n, nsenter); CI runs as root');
  if (!existsSync(CLI) || !existsSync(DRIVER)) throw new Error('run `npm run build` first (`npm test` does)');
  home = mkdtempSync(join(tmpdir(), 'openq-fresh-'));
  // The embedded PostgreSQL runs as user postgres when openq runs as root: it must reach its data.
  chmodSync(home, 0o755);
  openqHome = join(home, '.openq');
});

afterAll(async () => {
  if (!home) return;
  await run(process.execPath, [CLI, 'stop'], { env: freshEnv() }).catch(() => undefined);
  rmSync(home, { recursive: true, force: true });
});

it('starts an embedded PostgreSQL and nats-server, parks and resumes through them, and stops clean', async () => {
  const first = NamespacedOpenq.start();
  await first.ready();
  expect(first.out).toContain("creating the embedded PostgreSQL's data");
  expect(first.out).toContain(`started an embedded PostgreSQL (data: ${join(openqHome, 'postgres')}`);
  expect(first.out).toContain(`started nats-server -js`);
  expect(first.out).toContain(`store: ${join(openqHome, 'nats')}`);
  expect(processesUnder(openqHome).length).toBeGreaterThanOrEqual(2);

  expect(await first.parkAnswerResume('zero1')).toMatchObject({
    parked: 'user_decision',
    answered: 200,
    resumed: 'running',
  });

  // Ctrl-C at the terminal (SIGINT to the whole process group): the services drain, then both
  // servers stop — PostgreSQL is not in that group, so it does not stop under the services (issue
  // #34: no "Driver not Connected", no "outbox LISTEN unavailable" on a clean stop).
  process.kill(-first.child.pid!, 'SIGINT');
  expect(await first.exited).toBe(0);
  expect(processesUnder(openqHome)).toEqual([]);
  expect(first.out).not.toMatch(/Driver not Connected|LISTEN unavailable/);
  expect(existsSync(join(openqHome, 'postgres', 'PG_VERSION'))).toBe(true);

  // Again on the same data (no second initdb), stopped from outside with `openq stop`.
  const second = NamespacedOpenq.start();
  await second.ready();
  expect(second.out).not.toContain("creating the embedded PostgreSQL's data");
  // A second start in the same folder says so in one line (issue #34), before touching anything.
  const again = await run(process.execPath, [CLI, 'start'], { cwd: home, env: freshEnv() }).then(
    () => null,
    (error: { code?: number; stderr?: string }) => error,
  );
  expect(again?.code).toBe(1);
  expect(again?.stderr?.trim()).toBe(
    `openq: openq is already running here (pid ${second.child.pid}): use it, or stop it first with \`npm run openq -- stop\``,
  );
  expect(await second.parkAnswerResume('zero2')).toMatchObject({
    parked: 'user_decision',
    resumed: 'running',
  });
  const stopped = await run(process.execPath, [CLI, 'stop'], { env: freshEnv() });
  expect(stopped.stdout).toMatch(/^openq stop: stopped openq \(pid \d+\)/);
  expect(await second.exited).toBe(0);
  expect(processesUnder(openqHome)).toEqual([]);
});
