import 'reflect-metadata';
import { exitOnStartupFailure } from '@openq/platform';
import { loadGatewayConfig } from './config';
import { startGateway } from './gateway';

async function main(): Promise<void> {
  await startGateway(loadGatewayConfig());
}

main().catch((error: unknown) => exitOnStartupFailure('gateway', error));
