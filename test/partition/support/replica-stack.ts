import { join } from 'node:path';
import { connect, type NatsConnection } from 'nats';
import { Client } from 'pg';
import type { OpenqServiceName } from '@openq/platform';
import { createTestDatabase, freePort, type TestDatabase } from '@openq/testing';
import { assertBuilt, ServiceProcess, type StackView } from '../../support/processes';
import { RATE_LIMITS_OFF } from '../../support/rate-limits';
import type { NetnsCluster } from './netns-cluster';

/*
 * Two replicas of each service as processes of their own (started the production way by
 * test/support/processes.ts), on the host, against the 3-node cluster of `NetnsCluster` and
 * PostgreSQL on the host. Each replica has a slot of the cluster (its own addresses of the
 * servers), so the nemesis can cut one replica off the broker; the test's own connection has the
 * last slot.
 */

export const SERVICES: readonly OpenqServiceName[] = ['questions', 'gates', 'context', 'gateway'];
export const REPLICAS = 2;
export const TEST_SLOT = 9;

export interface Replica {
  service: OpenqServiceName;
  index: number;
  slot: number;
  proc: ServiceProcess;
  /** `questions#0` */
  label: string;
}

export class ReplicaStack implements StackView {
  readonly replicas: Replica[] = [];
  readonly procs: { has(service: OpenqServiceName): boolean };
  private turn = 0;

  private constructor(
    readonly cluster: NetnsCluster,
    readonly db: TestDatabase,
    readonly nc: NatsConnection,
    readonly pg: Client,
  ) {
    this.procs = { has: (service) => this.replicas.some((r) => r.service === service) };
  }

  /**
   * The database, the test's connection and every replica (all at once: migrations and stream
   * provisioning race on purpose). What it made is in the returned stack, or stopped when it fails.
   */
  static async start(cluster: NetnsCluster, logDir: string): Promise<ReplicaStack> {
    assertBuilt();
    const db = await createTestDatabase('openq_partition');
    let nc: NatsConnection | null = null;
    let pg: Client | null = null;
    try {
      // The test's connection notices a server that stopped answering within seconds (the services
      // keep the client's defaults) and moves to another.
      nc = await connect({
        servers: cluster.url(TEST_SLOT).split(','),
        name: 'partition-test',
        maxReconnectAttempts: -1,
        reconnectTimeWait: 250,
        pingInterval: 2000,
        maxPingOut: 2,
      });
      pg = new Client({ connectionString: db.url });
      await pg.connect();
    } catch (error) {
      await nc?.close().catch(() => undefined);
      await pg?.end().catch(() => undefined);
      await db.drop();
      throw error;
    }
    const stack = new ReplicaStack(cluster, db, nc, pg);
    let slot = 0;
    for (const service of SERVICES)
      for (let index = 0; index < REPLICAS; index++) {
        const mySlot = slot++;
        const port = await freePort();
        const env = {
          PATH: process.env.PATH,
          NODE_ENV: 'test',
          LOG_LEVEL: 'warn',
          HOST: '127.0.0.1',
          NATS_URL: cluster.url(mySlot),
          DATABASE_URL: db.url,
          OPENQ_STREAM_REPLICAS: '3',
          // A gateway whose questions replica sits behind a partition answers 504 after this, and
          // the load retries on the other gateway.
          GATEWAY_RPC_TIMEOUT_MS: '10000',
          ...RATE_LIMITS_OFF,
        };
        const label = `${service}#${index}`;
        stack.replicas.push({
          service,
          index,
          slot: mySlot,
          label,
          proc: new ServiceProcess(service, port, () => env, join(logDir, `${service}-${index}.log`)),
        });
      }
    try {
      await Promise.all(stack.replicas.map((r) => r.proc.start()));
    } catch (error) {
      await stack.stop().catch(() => undefined);
      throw error;
    }
    return stack;
  }

  of(service: OpenqServiceName): Replica[] {
    return this.replicas.filter((r) => r.service === service);
  }

  /** The gateways in turn, so that a retried click goes to the other one. */
  get gatewayUrl(): string {
    const gateways = this.of('gateway');
    return gateways[this.turn++ % gateways.length]!.proc.url('');
  }

  async sql<T = Record<string, unknown>>(query: string, params: unknown[] = []): Promise<T[]> {
    return (await this.pg.query(query, params)).rows as T[];
  }

  async count(query: string, params: unknown[] = []): Promise<number> {
    const [row] = await this.sql<{ n: string }>(query, params);
    return Number(row?.n ?? 0);
  }

  async stop(): Promise<void> {
    await Promise.all(this.replicas.map((r) => r.proc.stop()));
    await this.pg.end().catch(() => undefined);
    await this.nc.close().catch(() => undefined);
    await this.db.drop();
  }
}
