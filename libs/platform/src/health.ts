import {
  Controller,
  Get,
  Header,
  Inject,
  Module,
  Res,
  type BeforeApplicationShutdown,
  type DynamicModule,
  type ModuleMetadata,
} from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { collectDefaultMetrics, register } from 'prom-client';
import { PublicRoute } from './public-route';
import { runReadinessChecks, type CheckResult, type ReadinessChecks } from './readiness';

export const READINESS_CHECKS = Symbol('openq:readinessChecks');

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
export class HealthController implements BeforeApplicationShutdown {
  private shuttingDown = false;

  constructor(@Inject(READINESS_CHECKS) private readonly checks: ReadinessChecks) {}

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
}

/**
 * `GET /healthz`, `GET /readyz` (the named checks) and `GET /metrics` (prom-client's default
 * registry, default process metrics on). Give the checks as a record, or a factory with `inject`.
 */
@Module({})
export class HealthModule {
  static register(checks: ReadinessChecks | ReadinessChecksFactory = {}): DynamicModule {
    ensureDefaultMetrics();
    const provider = isFactory(checks)
      ? { provide: READINESS_CHECKS, useFactory: checks.useFactory, inject: checks.inject ?? [] }
      : { provide: READINESS_CHECKS, useValue: checks };
    return {
      module: HealthModule,
      imports: isFactory(checks) ? (checks.imports ?? []) : [],
      controllers: [HealthController],
      providers: [provider],
    };
  }
}

function isFactory(checks: ReadinessChecks | ReadinessChecksFactory): checks is ReadinessChecksFactory {
  return typeof (checks as ReadinessChecksFactory).useFactory === 'function';
}
