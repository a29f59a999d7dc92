import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import type { NatsConnection } from 'nats';
import type { Client } from 'pg';
import { eventSubject, STREAMS, type EventEnvelope } from '@openq/contracts';
import { encodeJson } from '@openq/messaging';
import { SERVICE_PORTS, type OpenqServiceName } from '@openq/platform';
import { suiteTagEnv } from '@openq/testing';

/** Helpers of the scale-out test: service replicas as processes, and what it reads back. */

export const ROOT = join(__dirname, '..', '..');
export const CLI = join(ROOT, 'dist', 'tools', 'cli.js');
export const SCHEMAS = ['questions', 'gates', 'context'] as const;

export interface Replica {
  service: OpenqServiceName;
  index: number;
  port: number;
  child: ChildProcess;
  output: string[];
  exit: Promise<number | null>;
}

/** `node dist/tools/cli.js start <service>` with its port and `env`; output kept in memory. */
export function spawnReplica(
  service: OpenqServiceName,
  index: number,
  port: number,
  env: NodeJS.ProcessEnv,
): Replica {
  const child = spawn(process.execPath, [CLI, 'start', service], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      ...suiteTagEnv(),
      ...env,
      [SERVICE_PORTS[service].variable]: String(port),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  child.stdout!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { service, index, port, child, output, exit };
}

export function url(r: Replica, path: string): string {
  return `http://127.0.0.1:${r.port}${path}`;
}

export async function ready(r: Replica): Promise<boolean> {
  if (r.child.exitCode !== null)
    throw new Error(`${r.service}#${r.index} exited ${r.child.exitCode}:\n${r.output.join('').slice(-3000)}`);
  const res = await fetch(url(r, '/readyz')).catch(() => null);
  return res?.status === 200;
}

/** Sum of a Prometheus series in one replica's /metrics (all series whose labels include `labels`). */
export async function metric(r: Replica, name: string, labels: Record<string, string> = {}): Promise<number> {
  const text = await (await fetch(url(r, '/metrics'))).text();
  let sum = 0;
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const series = Object.fromEntries(
      [...(m[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((x) => [x[1], x[2]]),
    );
    if (Object.entries(labels).every(([k, v]) => series[k] === v)) sum += Number(m[3]);
  }
  return sum;
}

export async function inBatches<T>(
  items: T[],
  size: number,
  run: (item: T, i: number) => Promise<void>,
): Promise<void> {
  for (let i = 0; i < items.length; i += size)
    await Promise.all(items.slice(i, i + size).map((item, j) => run(item, i + j)));
}

/** Reads the shared state: the database (all schemas) and JetStream. */
export class Probe {
  constructor(
    private readonly nc: NatsConnection,
    private readonly pg: Client,
  ) {}

  async sql(query: string, params: unknown[] = []): Promise<number> {
    const { rows } = await this.pg.query<{ n: string }>(query, params);
    return Number(rows[0]?.n ?? 0);
  }

  async publish(envelope: EventEnvelope, msgID = envelope.eventId): Promise<void> {
    await this.nc
      .jetstream()
      .publish(eventSubject(envelope.type, envelope.projectId), encodeJson(envelope), { msgID });
  }

  /** Messages in a stream on `filter`, from the server's per-subject counts. */
  async streamCount(stream: string, filter: string): Promise<number> {
    const info = await (await this.nc.jetstreamManager()).streams.info(stream, { subjects_filter: filter });
    return Object.values(info.state.subjects ?? {}).reduce((a, b) => a + b, 0);
  }

  async outboxRows(where = 'true'): Promise<number> {
    let total = 0;
    for (const schema of SCHEMAS)
      total += await this.sql(`SELECT count(*) AS n FROM ${schema}.outbox WHERE ${where}`);
    return total;
  }

  /** Every durable consumer of the openq services has taken and acked everything. */
  async consumersIdle(): Promise<boolean> {
    const jsm = await this.nc.jetstreamManager();
    for (const stream of [STREAMS.agentEvents.name, STREAMS.openqEvents.name]) {
      for (const c of await jsm.consumers.list(stream).next()) {
        if (!/^(questions|gates|context)__/.test(c.name)) continue;
        if (c.num_pending + c.num_ack_pending > 0) return false;
      }
    }
    return true;
  }
}
