import { connect, type NatsConnection } from 'nats';
import { Client } from 'pg';
import { DEV_JWT_SECRET } from '@openq/platform';
import {
  createTestDatabase,
  freePort,
  startNatsServer,
  type TestDatabase,
  type TestNatsServer,
} from '@openq/testing';
import { mintDevToken, type DevTokenRole } from '../../../tools/token';
import { ServiceProcess, type ServiceProcessName } from '../support/processes';
import { sleep } from '../support/stats';
import { answerResumeRun, type AnswerResumeRun, type RunningSystem } from './answer-resume';

/** The parked-capacity scenario's services: those that hold or serve parked cycles. */
const SERVICES: readonly ServiceProcessName[] = ['questions', 'gates', 'context', 'gateway'];

/** All five, as deployed (issue #29): the notifier consumes every question too. */
export const DEPLOYED: readonly ServiceProcessName[] = [
  'questions',
  'gates',
  'context',
  'notifier',
  'gateway',
];

/** The gates tables a parked cycle lives in. */
const GATE_TABLES = ['gate_cycle', 'answered_questions'];

/**
 * openq with each service in a process of its own (the production shape), against a private
 * nats-server and a throwaway database, for the parked-capacity scenario.
 */
export class ProcessSystem implements RunningSystem {
  readonly processes = new Map<ServiceProcessName, ServiceProcess>();
  baseUrl = '';

  private constructor(
    readonly natsServer: TestNatsServer,
    readonly db: TestDatabase,
    readonly nc: NatsConnection,
    readonly pg: Client,
    private readonly env: Record<string, string>,
    private readonly ports: Record<ServiceProcessName, number>,
    readonly services: readonly ServiceProcessName[],
  ) {}

  /** `services` in processes of their own (the parked scenario's four unless told), `env` on top. */
  static async start(
    sweepIntervalS: number,
    services: readonly ServiceProcessName[] = SERVICES,
    extraEnv: Record<string, string> = {},
  ): Promise<ProcessSystem> {
    const natsServer = await startNatsServer();
    const db = await createTestDatabase('openq_bench_parked');
    const ports = {
      questions: await freePort(),
      gates: await freePort(),
      context: await freePort(),
      notifier: await freePort(),
      gateway: await freePort(),
    };
    const env = {
      NODE_ENV: 'test',
      LOG_LEVEL: 'error',
      HOST: '127.0.0.1',
      NATS_URL: natsServer.url,
      DATABASE_URL: db.url,
      PORT: String(ports.gateway),
      QUESTIONS_HTTP_PORT: String(ports.questions),
      GATES_HTTP_PORT: String(ports.gates),
      CONTEXT_HTTP_PORT: String(ports.context),
      NOTIFIER_HTTP_PORT: String(ports.notifier),
      GATE_SWEEP_INTERVAL_S: String(sweepIntervalS),
      ...extraEnv,
    };
    const nc = await connect({ servers: natsServer.url });
    const pg = new Client({ connectionString: db.url });
    await pg.connect();
    const system = new ProcessSystem(natsServer, db, nc, pg, env, ports, services);
    system.baseUrl = `http://127.0.0.1:${ports.gateway}`;
    for (const name of services) await system.startService(name);
    return system;
  }

  async startService(name: ServiceProcessName): Promise<void> {
    this.processes.set(
      name,
      await ServiceProcess.start(name, this.env, `http://127.0.0.1:${this.ports[name]}/readyz`),
    );
  }

  async restart(name: ServiceProcessName): Promise<void> {
    await this.processes.get(name)?.stop();
    await this.startService(name);
  }

  token(user: string, project: string, role: DevTokenRole = 'developer'): string {
    return mintDevToken({ user, project, role, secret: DEV_JWT_SECRET });
  }

  /** The services' process ids. */
  pids(): number[] {
    return [...this.processes.values()].map((p) => p.pid);
  }

  /** RSS of each service (MiB). */
  rss(): Record<ServiceProcessName, number> {
    return Object.fromEntries(this.services.map((n) => [n, this.processes.get(n)!.rss()])) as Record<
      ServiceProcessName,
      number
    >;
  }

  /** Bytes PostgreSQL uses for the gates tables (heap, TOAST and indexes). */
  async gatesBytes(): Promise<number> {
    const { rows } = await this.pg.query<{ bytes: string }>(
      `SELECT sum(pg_total_relation_size(format('gates.%I', t)))::bigint AS bytes FROM unnest($1::text[]) AS t`,
      [GATE_TABLES],
    );
    return Number(rows[0]!.bytes);
  }

  async stop(): Promise<void> {
    for (const name of [...this.services].reverse()) await this.processes.get(name)?.stop();
    await this.pg.end();
    await this.nc.close();
    await this.natsServer.stop();
    await this.db.drop();
  }
}

/**
 * Bulk-inserts `count` cycles parked on a user decision (ids `from`..), each waiting on one
 * question, in the gates table. The cycle document is a real one the service wrote (a cycle the
 * warm-up parked and resumed), turned back into its parked form, so the rows are what the
 * service itself would store; the columns beside it are derived the way the store derives them.
 */
export async function seedParkedCycles(pg: Client, from: number, count: number): Promise<void> {
  const { rows } = await pg.query<{ cycle: Record<string, unknown> }>(
    `SELECT cycle FROM gates.gate_cycle ORDER BY updated_at DESC LIMIT 1`,
  );
  if (!rows[0]) throw new Error('bench: no gate cycle to copy (the warm-up parked none)');
  await pg.query(
    `INSERT INTO gates.gate_cycle (project_id, task_id, gate, state, parked_reason, waiting_on, last_activity_at, last_redispatch_at, cycle, updated_at)
     SELECT project_id, task_id, 'qa', 'parked', 'user_decision', ARRAY[question_id], at, NULL,
            $3::jsonb || jsonb_build_object(
              'projectId', project_id, 'taskId', task_id, 'gate', 'qa', 'status', 'parked', 'parkedReason', 'user_decision',
              'questionIds', jsonb_build_array(question_id), 'linkedQuestionIds', jsonb_build_array(question_id),
              'answeredQuestions', '{}'::jsonb, 'pendingQuestionRequest', NULL,
              'processedRoundIds', jsonb_build_array('R-park-' || g),
              'lastActivityAt', to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
              'lastRedispatchAt', NULL,
              'updatedAt', to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')),
            at
       FROM (SELECT g, 'p' || (g % 10) AS project_id, 'TP-' || g AS task_id, md5('park-q-' || g)::uuid AS question_id,
                    now() - interval '3 days' + g * interval '10 milliseconds' AS at
               FROM generate_series($1::int, $1::int + $2::int - 1) AS g) AS s`,
    [from, count, JSON.stringify(rows[0].cycle)],
  );
}

/** Samples the services' RSS `times` times, `gapMs` apart. */
export async function sampleRss(
  system: ProcessSystem,
  times: number,
  gapMs: number,
): Promise<Record<ServiceProcessName, number>[]> {
  const out: Record<ServiceProcessName, number>[] = [];
  for (let i = 0; i < times; i++) {
    if (i > 0) await sleep(gapMs);
    out.push(system.rss());
  }
  return out;
}

/** A few real cycles (park → answer → resume) to exercise every code path, and to time them. */
export function liveCycles(
  system: ProcessSystem,
  tag: string,
  count: number,
  rate: number,
  timeoutMs: number,
): Promise<AnswerResumeRun> {
  return answerResumeRun(system, tag, count, 0, rate, timeoutMs);
}
