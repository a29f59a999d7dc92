import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { runService, type RunServiceOptions } from '@openq/platform';
import { AppModule } from './app.module';
import type { GatewayConfig } from './config';
import { installAdmission } from './http/admission';
import { setupOpenApi } from './http/docs';
import { RateLimits } from './http/rate-limits';

/** Starts the gateway (also used by laptop mode and the integration test). */
export function startGateway(
  config: GatewayConfig,
  overrides: Partial<RunServiceOptions> = {},
): Promise<NestFastifyApplication> {
  return runService({
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
    configure: async (app) => {
      const fastify = app.getHttpAdapter().getInstance();
      await installAdmission(fastify, config.admission);
      await app.get(RateLimits).install(fastify);
      setupOpenApi(app);
    },
    ...overrides,
  });
}
