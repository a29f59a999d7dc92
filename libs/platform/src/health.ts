import {
  Controller,
  Get,
  Header,
  Inject,
  Module,
  Optional,
  Res,
  type BeforeApplicationShutdown,
  type OnApplicationShutdown,
  type DynamicModule,
  type ModuleMetadata,
} from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { collectDefaultMetrics, Gauge, register } from 'prom-client';
import { PublicRoute } from './public-route';
import { runReadinessChecks, type CheckResult, type ReadinessChecks } from './readiness';

export const READINESS_CHECKS = Symbol('openq:readinessChecks');
const HEALTH_SERVICE = Symbol('openq:healthService');

/** `openq_service_ready{service}`: what `/readyz` would answer, evaluated on each scrape. */
export const READY_METRIC = 'openq_service_ready';

/** Per service of the process, how to tell whether it is ready (several in laptop mode and tests). */
const readiness = new Map<object, { service: string; ready: () => Promise<boolean> }>();

/**
 * What `/readyz` of `service` would answer now (its checks, and false once shutting down), for a
 * probe answered off the main port (issue #27, `probe-server.ts`); undefined before it started.
 */
export function serviceReadiness(service: string): (() => Promise<boolean>) | undefined {
  for (const r of readiness.values()) if (r.service === service) return r.ready;
  return undefined;
}

function ensureReadyGauge(): void {
  if (register.getSingleMetric(READY_METRIC)) return;
  new Gauge({
    name: READY_METRIC,
    help: '1 when the service would answer /readyz with 200 (NATS and PostgreSQL answer, not shutting down), else 0; evaluated on each scrape',
    labelNames: ['service'],
    async collect() {
      const results = await Promise.all(
        [...readiness.values()].map(async (r) => [r.service, await r.ready()] as const),
      );
      this.reset();
      for (const [service, ready] of results) this.set({ service }, ready ? 1 : 0);
    },
  });
}

/** Readiness checks that need providers (a NATS connection, a data source) to be built. */
export interface ReadinessChecksFactory {
  imports?: ModuleMetadata['imports'];
  inject?: Array<string | symbol | (abstract new (...args: never[]) => unknown)>;
  useFactory: (...deps: never[]) => ReadinessChecks | Promise<ReadinessChecks>;
}

/** Minimal reply surface shared by Fastify and Express (only the status is set here). */
interface StatusReply {
  status(code: number): unknown;
}

export type ReadyBody =
  | { status: 'ready'; checks: Record<string, CheckResult> }
  | {
      status: 'not_ready';
      statusCode: 503;
      reason: 'nao_pronto';
      message: string;
      checks: Record<string, CheckResult>;
    };

/** Process-wide: default metrics are registered once even when several services share a process. */
export function ensureDefaultMetrics(): void {
  if (!register.getSingleMetric('process_cpu_user_seconds_total')) collectDefaultMetrics();
}

@PublicRoute()
@ApiExcludeController()
@Controller()
export class HealthController implements BeforeApplicationShutdown, OnApplicationShutdown {
  private shuttingDown = false;

  constructor(
    @Inject(READINESS_CHECKS) private readonly checks: ReadinessChecks,
    @Optional() @Inject(HEALTH_SERVICE) service?: string,
  ) {
    if (!service) return;
    ensureReadyGauge();
    readiness.set(this, {
      service,
      ready: async () => !this.shuttingDown && (await runReadinessChecks(this.checks)).ready,
    });
  }

  /** Liveness: the process is up and its event loop answers. */
  @Get('healthz')
  healthz(): { status: 'ok' } {
    return { status: 'ok' };
  }

  /** Readiness: every dependency answers; 503 (and no new traffic) while shutting down. */
  @Get('readyz')
  async readyz(@Res({ passthrough: true }) reply: StatusReply): Promise<ReadyBody> {
    const report = await runReadinessChecks(this.checks);
    if (report.ready && !this.shuttingDown) return { status: 'ready', checks: report.checks };
    reply.status(503);
    const down = Object.entries(report.checks)
      .flatMap(([name, r]) => (r.status === 'down' ? [`${name}: ${r.error}`] : []))
      .concat(this.shuttingDown ? ['shutting down'] : []);
    return {
      status: 'not_ready',
      statusCode: 503,
      reason: 'nao_pronto',
      message: down.join('; '),
      checks: report.checks,
    };
  }

  @Get('metrics')
  @Header('Content-Type', register.contentType)
  @Header('Cache-Control', 'no-store')
  metrics(): Promise<string> {
    return register.metrics();
  }

  beforeApplicationShutdown(): void {
    this.shuttingDown = true;
  }

  onApplicationShutdown(): void {
    readiness.delete(this);
  }
}

/**
 * `GET /healthz`, `GET /readyz` (the named checks) and `GET /metrics` (prom-client's default
 * registry, default process metrics on). Give the checks as a record, or a factory with `inject`.
 * With `service`, the same readiness is also the gauge `openq_service_ready{service}`.
 */
@Module({})
export class HealthModule {
  static register(
    checks: ReadinessChecks | ReadinessChecksFactory = {},
    options: { service?: string } = {},
  ): DynamicModule {
    ensureDefaultMetrics();
    const provider = isFactory(checks)
      ? { provide: READINESS_CHECKS, useFactory: checks.useFactory, inject: checks.inject ?? [] }
      : { provide: READINESS_CHECKS, useValue: checks };
    return {
      module: HealthModule,
      imports: isFactory(checks) ? (checks.imports ?? []) : [],
      controllers: [HealthController],
      providers: [
        provider,
        ...(options.service ? [{ provide: HEALTH_SERVICE, useValue: options.service }] : []),
      ],
    };
  }
}

function isFactory(checks: ReadinessChecks | ReadinessChecksFactory): checks is ReadinessChecksFactory {
  return typeof (checks as ReadinessChecksFactory).useFactory === 'function';
}
