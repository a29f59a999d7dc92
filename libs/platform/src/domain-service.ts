import {
  Global,
  Inject,
  Injectable,
  Module,
  type DynamicModule,
  type OnApplicationShutdown,
} from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { NatsConnection } from 'nats';
import { DataSource } from 'typeorm';
import {
  DEFAULT_STREAM_SETTINGS,
  JetStreamServer,
  RethrowErrorsFilter,
  type JetStreamServerOptions,
} from '@openq/messaging';
import { openDatabase, type DatabaseOptions } from '@openq/persistence';
import { exitOnStartupFailure, runService } from './bootstrap';
import type { OpenqConfig } from './config';
import { HealthModule } from './health';
import { connectNats } from './nats';
import { dataSourceReadinessCheck, natsReadinessCheck } from './readiness';
import { registerServiceGauges, type ServiceGauge } from './service-gauges';

/** Injection token of the service's NATS connection. */
export const NATS = Symbol('openq:nats');
const RELEASE_GAUGES = Symbol('openq:releaseGauges');

export interface DomainServiceOptions {
  name: 'questions' | 'gates' | 'context' | 'notifier';
  config: OpenqConfig;
  /** The feature module; it may inject `DataSource` and `NATS`. */
  module: DynamicModule | (new () => unknown);
  /** Defaults to the service name. */
  schema?: string;
  entities?: DatabaseOptions['entities'];
  migrations?: DatabaseOptions['migrations'];
  /** Transport options beyond the infrastructure (registries, onInvalid, concurrency …). */
  transport?: Omit<JetStreamServerOptions, 'service' | 'nc' | 'dataSource' | 'schema' | 'databaseUrl'>;
  /** Gauges read from the service's database on each /metrics scrape (e.g. open questions). */
  gauges?: readonly ServiceGauge[];
  httpPort?: number;
  /** Tests: throw instead of exiting, and leave signals alone. */
  embedded?: boolean;
  /** Pooled PostgreSQL connections (default 10); tests shrink it to show nothing holds one for long. */
  poolSize?: number;
}

export interface DomainService {
  app: NestFastifyApplication;
  dataSource: DataSource;
  nc: NatsConnection;
  server: JetStreamServer;
  close(): Promise<void>;
}

@Injectable()
class InfrastructureShutdown implements OnApplicationShutdown {
  constructor(
    @Inject(NATS) private readonly nc: NatsConnection,
    private readonly dataSource: DataSource,
    @Inject(RELEASE_GAUGES) private readonly releaseGauges: () => void,
  ) {}

  /** Runs after the transport has stopped pulling and finished its in-flight transactions. */
  async onApplicationShutdown(): Promise<void> {
    this.releaseGauges();
    if (!this.nc.isClosed()) await this.nc.drain().catch(() => this.nc.close());
    if (this.dataSource.isInitialized) await this.dataSource.destroy().catch(() => undefined);
  }
}

@Global()
@Module({})
class InfrastructureModule {
  static forRoot(nc: NatsConnection, dataSource: DataSource, releaseGauges: () => void): DynamicModule {
    return {
      module: InfrastructureModule,
      providers: [
        { provide: NATS, useValue: nc },
        { provide: DataSource, useValue: dataSource },
        { provide: RELEASE_GAUGES, useValue: releaseGauges },
        InfrastructureShutdown,
      ],
      exports: [NATS, DataSource],
    };
  }
}

/**
 * Starts one domain service: connects NATS and PostgreSQL (creating the database, schema and
 * tables), provisions streams and consumers, serves its events and requests through the
 * JetStream transport (inbox, outbox relay), and `/healthz`, `/readyz`, `/metrics` over HTTP.
 */
export async function startDomainService(options: DomainServiceOptions): Promise<DomainService> {
  const { name, config } = options;
  const httpPort = options.httpPort ?? config.ports[name];
  let nc: NatsConnection | null = null;
  let dataSource: DataSource | null = null;
  try {
    nc = await connectNats(config.nats.url, `openq-${name}`);
    dataSource = await openDatabase({
      url: config.database.url,
      schema: options.schema ?? name,
      entities: options.entities,
      migrations: options.migrations,
      ...(options.poolSize ? { poolSize: options.poolSize } : {}),
    });
  } catch (error) {
    await nc?.close().catch(() => undefined);
    await dataSource?.destroy().catch(() => undefined);
    if (options.embedded) throw error;
    exitOnStartupFailure(name, error, { httpPort });
  }
  const server = new JetStreamServer({
    service: name,
    nc,
    dataSource,
    schema: options.schema ?? name,
    databaseUrl: config.database.url,
    // R3 on a 3-node cluster (OPENQ_STREAM_REPLICAS): the same definitions as deploy/nats/streams.json
    streams: { ...DEFAULT_STREAM_SETTINGS, replicas: config.nats.streamReplicas },
    // Fault injection for the crash tests: the process dies between a COMMIT and its publish.
    ...(process.env.OPENQ_FAULT_DIE_AFTER_COMMIT === '1'
      ? { beforeAfterCommitPublish: () => process.kill(process.pid, 'SIGKILL') }
      : {}),
    ...options.transport,
  });
  const releaseGauges = registerServiceGauges(name, dataSource, options.gauges ?? []);
  const ready = { nats: natsReadinessCheck(nc), postgres: dataSourceReadinessCheck(dataSource) };
  const app = await runService({
    name,
    httpPort,
    host: config.host,
    logLevel: config.logLevel,
    shutdownTimeoutMs: config.shutdownTimeoutMs,
    exitOnFailure: !options.embedded,
    handleSignals: !options.embedded,
    module: {
      module: class DomainServiceRoot {},
      imports: [
        InfrastructureModule.forRoot(nc, dataSource, releaseGauges),
        HealthModule.register(ready, { service: name }),
        options.module,
      ],
    },
    configure: async (created) => {
      const transport = created.connectMicroservice(
        { strategy: server },
        { inheritAppConfig: false, deferInitialization: true },
      );
      // Handlers' errors reach the transport as thrown, so the inbox can tell transient from poison.
      transport.useGlobalFilters(new RethrowErrorsFilter());
      await created.startAllMicroservices();
    },
  });
  return { app, dataSource, nc, server, close: () => app.close() };
}
