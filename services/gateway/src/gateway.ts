import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import {
  runService,
  serviceReadiness,
  startProbeServer,
  type ProbeServer,
  type RunServiceOptions,
} from '@openq/platform';
import { AppModule } from './app.module';
import type { GatewayConfig } from './config';
import { installAdmission } from './http/admission';
import { setupOpenApi } from './http/docs';
import { RateLimits } from './http/rate-limits';

const probes = new WeakMap<NestFastifyApplication, ProbeServer>();

/** The probe port of a gateway started with `GATEWAY_PROBE_PORT` (issue #27), else null. */
export function probePortOf(app: NestFastifyApplication): number | null {
  return probes.get(app)?.port ?? null;
}

/** Starts the gateway (also used by laptop mode and the integration test). */
export async function startGateway(
  config: GatewayConfig,
  overrides: Partial<RunServiceOptions> = {},
): Promise<NestFastifyApplication> {
  const app = await runService({
    name: 'gateway',
    module: AppModule.forRoot(config),
    httpPort: config.ports.gateway,
    portVariable: 'PORT',
    host: config.host,
    logLevel: config.logLevel,
    shutdownTimeoutMs: config.shutdownTimeoutMs,
    // [openq] issue #17 a one-tap link token (`/l/:token`, a compact JWS) is ~330 characters.
    maxParamLength: 1024,
    // [openq] issue #27 the client's address through the operator's proxies only (rate limits, logs).
    trustProxy: config.trustedProxies,
    // [openq] issue #34 Slack signs its callbacks' raw bytes (`POST /slack/interactions`).
    rawBody: true,
    configure: async (app) => {
      const fastify = app.getHttpAdapter().getInstance();
      await installAdmission(fastify, config.admission);
      await app.get(RateLimits).install(fastify);
      setupOpenApi(app);
      if (config.probePort !== null) {
        // Closed first on shutdown: the probe says "not ready" while the main port drains.
        fastify.addHook('preClose', async () => {
          await probes.get(app)?.close();
        });
      }
    },
    ...overrides,
  });
  if (config.probePort !== null) {
    const probe = await startProbeServer({
      port: config.probePort,
      host: config.host,
      ready: () => serviceReadiness('gateway')?.() ?? Promise.resolve(false),
    }).catch(async (error: unknown) => {
      await app.close();
      throw error;
    });
    probes.set(app, probe);
  }
  return app;
}
