import type { AddressInfo } from 'node:net';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { loadGatewayConfig } from '../config';
import { startGateway } from '../gateway';

/**
 * A gateway for an integration test: on a free port of 127.0.0.1, silent, no signal handlers,
 * configured from `env` (NATS_URL and the secrets at least) as the process environment would.
 */
export async function startTestGateway(
  env: Record<string, string>,
): Promise<{ app: NestFastifyApplication; base: string }> {
  const app = await startGateway(loadGatewayConfig({ HOST: '127.0.0.1', ...env }), {
    httpPort: 0,
    exitOnFailure: false,
    handleSignals: false,
    logLevel: 'silent',
  });
  return { app, base: `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}` };
}
