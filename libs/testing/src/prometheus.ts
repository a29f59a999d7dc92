import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './nats-server';
import { waitFor } from './wait-for';

/*
 * Debian's `prometheus` package (installed by .ci/run: `need_pkg promtool prometheus`) gives
 * `promtool` (rule tests) and `prometheus` (the scrape test). Missing, a test FAILS saying how
 * to install it: the rules and the metrics they read are not optional.
 */

function binary(name: 'promtool' | 'prometheus', envVar: string): string {
  const candidates = [process.env[envVar], `/usr/bin/${name}`, `/usr/local/bin/${name}`, `/usr/sbin/${name}`];
  const found = candidates.find((p): p is string => !!p && existsSync(p));
  if (!found)
    throw new Error(
      `${name} is not installed: \`apt-get install prometheus\` (Debian's package has both promtool and prometheus; .ci/run installs it), or set ${envVar}`,
    );
  return found;
}

export const promtoolBinary = (): string => binary('promtool', 'PROMTOOL_BIN');
export const prometheusBinary = (): string => binary('prometheus', 'PROMETHEUS_BIN');

/** Runs promtool (synchronously): its exit code and output (stdout + stderr). */
export function runPromtool(args: string[], cwd?: string): { status: number | null; output: string } {
  const result = spawnSync(promtoolBinary(), args, { cwd, encoding: 'utf8', timeout: 60_000 });
  if (result.error) throw result.error;
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

export interface PrometheusQueryResult {
  resultType: string;
  result: { metric: Record<string, string>; value?: [number, string] }[];
}

export interface TestPrometheus {
  url: string;
  /** GET /api/v1/<path>; throws on a non-success answer with Prometheus's error. */
  api<T = unknown>(path: string, params?: Record<string, string | string[]>): Promise<T>;
  query(expr: string): Promise<PrometheusQueryResult>;
  stop(): Promise<void>;
}

/**
 * A Prometheus server of the test's own: free port, temporary data directory, the given
 * configuration (YAML text). Ready when /-/ready answers 200.
 */
export async function startPrometheus(configYaml: string): Promise<TestPrometheus> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'openq-prometheus-'));
  const configFile = join(dir, 'prometheus.yml');
  writeFileSync(configFile, configYaml);
  let output = '';
  const child: ChildProcess = spawn(
    prometheusBinary(),
    [
      `--config.file=${configFile}`,
      `--storage.tsdb.path=${join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      '--log.level=warn',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await waitFor(
      async () => {
        if (child.exitCode !== null) throw new Error(`prometheus exited ${child.exitCode}: ${output}`);
        const res = await fetch(`${url}/-/ready`).catch(() => null);
        return res?.status === 200;
      },
      { timeoutMs: 30_000, intervalMs: 100, what: `prometheus on ${url}` },
    );
  } catch (error) {
    await stop();
    throw error;
  }
  const api = async <T>(path: string, params: Record<string, string | string[]> = {}): Promise<T> => {
    const search = new URLSearchParams();
    for (const [k, v] of Object.entries(params)) for (const one of [v].flat()) search.append(k, one);
    const res = await fetch(`${url}/api/v1/${path}?${search}`);
    const body = (await res.json()) as { status: string; data: T; error?: string; errorType?: string };
    if (body.status !== 'success') throw new Error(`prometheus ${path}: ${body.errorType}: ${body.error}`);
    return body.data;
  };
  return {
    url,
    api,
    query: (expr) => api<PrometheusQueryResult>('query', { query: expr }),
    stop,
  };
}
