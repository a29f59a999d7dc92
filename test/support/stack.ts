import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { connect, type NatsConnection } from 'nats';
import { eventSubject, makeEnvelope, STREAMS, type EventEnvelope } from '@openq/contracts';
import { encodeJson } from '@openq/messaging';
import { DEV_JWT_SECRET, DEV_SERVICE_TOKEN, type DomainService } from '@openq/platform';
import {
  createTestDatabase,
  EventCollector,
  startNatsServer,
  type TestDatabase,
  type TestNatsServer,
} from '@openq/testing';
import { startContext } from '../../services/context/src/context-service';
import { startGates } from '../../services/gates/src/gates-service';
import { loadGatewayConfig, type GatewayConfig } from '../../services/gateway/src/config';
import { startGateway } from '../../services/gateway/src/gateway';
import { startNotifier } from '../../services/notifier/src/notifier-service';
import { startQuestions } from '../../services/questions/src/questions-service';
import { mintDevToken, type DevTokenRole } from '../../tools/token';
import { RATE_LIMITS_OFF } from './rate-limits';

export type ServiceName = 'questions' | 'gates' | 'context' | 'notifier';

export interface StackOptions {
  services?: ServiceName[];
  gateway?: boolean;
  /** Extra environment (e.g. GATE_PARK_AFTER_S=2). The default services leave the notifier out: name it. */
  env?: Record<string, string>;
  /** Pooled PostgreSQL connections per service (default 10). */
  poolSize?: Partial<Record<ServiceName, number>>;
  /** The notifier's clock for digests (issue #17); default the real time. */
  notifierNow?: () => Date;
}

/**
 * The whole system in this process, against a NATS server and a database of the test's own:
 * the real services, the real gateway on a free port, and helpers to act as the engine and users.
 */
export class Stack {
  readonly services = new Map<ServiceName, DomainService>();
  gateway: NestFastifyApplication | null = null;
  baseUrl = '';
  events!: EventCollector;
  agentEvents!: EventCollector;

  private constructor(
    readonly nats: TestNatsServer,
    readonly db: TestDatabase,
    readonly nc: NatsConnection,
    readonly config: GatewayConfig,
  ) {}

  static async start(options: StackOptions = {}): Promise<Stack> {
    const nats = await startNatsServer();
    const db = await createTestDatabase();
    // As the services' own connections (`connectNats`): no stack traces captured per request, so
    // the bench's load (the engine's publishes) costs its process as little as it can.
    const nc = await connect({ servers: nats.url, noAsyncTraces: true });
    const config = loadGatewayConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: 'error',
      NATS_URL: nats.url,
      DATABASE_URL: db.url,
      PORT: '0',
      QUESTIONS_HTTP_PORT: '0',
      GATES_HTTP_PORT: '0',
      CONTEXT_HTTP_PORT: '0',
      NOTIFIER_HTTP_PORT: '0',
      HOST: '127.0.0.1',
      ...RATE_LIMITS_OFF,
      // The gateway's RPC deadline (5 s in production) is not what these tests are about: two suites
      // at a time on a busy 2-core machine once took longer and the inbox saw a 504.
      GATEWAY_RPC_TIMEOUT_MS: '20000',
      ...options.env,
    });
    const stack = new Stack(nats, db, nc, config);
    const starters = {
      questions: startQuestions,
      gates: startGates,
      context: startContext,
      // The notifier reads its own variables (NOTIFIER_*) from the stack's env.
      notifier: (c: GatewayConfig, o: { embedded: boolean; poolSize?: number }) =>
        startNotifier(c, {
          ...o,
          env: { ...process.env, ...options.env },
          ...(options.notifierNow ? { now: options.notifierNow } : {}),
        }),
    };
    for (const name of options.services ?? ['questions', 'gates', 'context']) {
      const poolSize = options.poolSize?.[name];
      stack.services.set(
        name,
        await starters[name](config, { embedded: true, ...(poolSize ? { poolSize } : {}) }),
      );
    }
    if (options.gateway !== false) {
      stack.gateway = await startGateway(config, { exitOnFailure: false, handleSignals: false });
      const address = stack.gateway.getHttpServer().address();
      stack.baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    }
    stack.events = await EventCollector.start(nc, STREAMS.openqEvents.name);
    stack.agentEvents = await EventCollector.start(nc, STREAMS.agentEvents.name);
    return stack;
  }

  service(name: ServiceName): DomainService {
    const s = this.services.get(name);
    if (!s) throw new Error(`${name} is not running in this stack`);
    return s;
  }

  token(user: string, project: string, role: DevTokenRole = 'developer'): string {
    return mintDevToken({ user, project, role, secret: DEV_JWT_SECRET });
  }

  /** Acts as the engine: publishes an agent event on AGENT_EVENTS (dedupe id = eventId). */
  async publishAgentEvent<T>(
    type: string,
    projectId: string,
    data: T,
    eventId?: string,
  ): Promise<EventEnvelope<T>> {
    const envelope = makeEnvelope(type, projectId, data, eventId ? { eventId } : {});
    await this.nc
      .jetstream()
      .publish(eventSubject(type, projectId), encodeJson(envelope), { msgID: envelope.eventId });
    return envelope;
  }

  /** An HTTP call as a user (JWT) or as the engine (service token). */
  async http(
    method: string,
    path: string,
    options: {
      token?: string;
      service?: boolean;
      body?: unknown;
      rawBody?: string;
      headers?: Record<string, string>;
    } = {},
    // Tests read arbitrary JSON bodies; a loose type keeps the assertions short.
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
  ): Promise<{ status: number; body: any }> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    if (options.service) headers['x-service-token'] = DEV_SERVICE_TOKEN;
    let body: string | undefined = options.rawBody;
    if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] = 'application/json';
    }
    const res = await fetch(`${this.baseUrl}${path}`, { method, headers, body });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      // not JSON (the inbox page, metrics)
    }
    return { status: res.status, body: parsed };
  }

  async stop(): Promise<void> {
    this.events?.stop();
    this.agentEvents?.stop();
    await this.gateway?.close();
    for (const s of [...this.services.values()].reverse()) await s.close();
    await this.nc.close();
    await this.nats.stop();
    await this.db.drop();
  }
}
