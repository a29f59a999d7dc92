import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { waitFor } from '@openq/testing';

/** The repository root, from the sources (jest) or from dist/ (npm run bench). */
export const REPO_ROOT = __filename.endsWith('.js')
  ? join(__dirname, '..', '..', '..', '..')
  : join(__dirname, '..', '..', '..');

export type ServiceProcessName = 'questions' | 'gates' | 'context' | 'notifier' | 'gateway';

/** Resident set size of a process, in MiB (from /proc). */
export function rssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = /VmRSS:\s+(\d+)\s+kB/.exec(status);
  if (!kb) throw new Error(`bench: no VmRSS for pid ${pid}`);
  return Number(kb[1]) / 1024;
}

/**
 * One openq service in a process of its own, the production shape (`openq start <service>` from
 * dist/), so its memory can be read apart from the others'.
 */
export class ServiceProcess {
  private exited: Promise<void>;
  private stderr = '';

  private constructor(
    readonly name: ServiceProcessName,
    private readonly child: ChildProcess,
  ) {
    this.exited = new Promise((resolve) => child.once('exit', () => resolve()));
    child.stderr?.on('data', (chunk: Buffer) => {
      this.stderr = (this.stderr + chunk.toString()).slice(-4000);
    });
    child.stdout?.resume();
  }

  static async start(
    name: ServiceProcessName,
    env: Record<string, string>,
    readyUrl: string,
  ): Promise<ServiceProcess> {
    const cli = join(REPO_ROOT, 'dist', 'tools', 'cli.js');
    if (!existsSync(cli)) throw new Error(`bench: ${cli} is missing — run \`npm run build\` first`);
    // `BENCH_CPU_PROF=<dir>`: each service writes a V8 CPU profile there when it stops
    // (`node dist/test/bench/profile.js <dir>/*.cpuprofile` reads them).
    const profile = process.env.BENCH_CPU_PROF
      ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`]
      : [];
    const child = spawn(process.execPath, [...profile, cli, 'start', name], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const service = new ServiceProcess(name, child);
    await waitFor(
      async () => {
        if (child.exitCode !== null)
          throw new Error(`${name} exited with ${child.exitCode}: ${service.stderr}`);
        const res = await fetch(readyUrl).catch(() => null);
        return res?.status === 200;
      },
      { timeoutMs: 60_000, intervalMs: 100, what: `${name} ready at ${readyUrl}` },
    );
    return service;
  }

  get pid(): number {
    return this.child.pid!;
  }

  rss(): number {
    return rssMiB(this.pid);
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null) return;
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 30_000);
    await this.exited;
    clearTimeout(timer);
  }
}
