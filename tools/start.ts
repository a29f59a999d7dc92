import 'reflect-metadata';
import { loadConfig, exitOnStartupFailure, startTracing, type OpenqConfig } from '@openq/platform';
import { startContext } from '../services/context/src/context-service';
import { startGates } from '../services/gates/src/gates-service';
import { loadGatewayConfig } from '../services/gateway/src/config';
import { startGateway } from '../services/gateway/src/gateway';
import { startNotifier } from '../services/notifier/src/notifier-service';
import { startQuestions } from '../services/questions/src/questions-service';

export const SERVICE_NAMES = ['questions', 'gates', 'context', 'notifier', 'gateway'] as const;
export type ServiceName = (typeof SERVICE_NAMES)[number];

/**
 * Runs the chosen services (default: all five) in this process — laptop mode. In production each
 * runs as its own process (`openq start questions`), scaled by replicas.
 */
export async function start(
  names: readonly ServiceName[] = SERVICE_NAMES,
  /** Banner lines about the servers `openq start` brought up itself (embedded PostgreSQL, NATS). */
  embedded: readonly string[] = [],
): Promise<void> {
  // Laptop mode is for a person at a terminal: the four services' start-up and request lines
  // would bury the address below; warnings and errors still show. LOG_LEVEL=info brings them back.
  const quiet = names.length > 1 && process.env.LOG_LEVEL === undefined;
  if (quiet) process.env.LOG_LEVEL = 'warn';
  let config: OpenqConfig;
  try {
    config = names.includes('gateway')
      ? loadGatewayConfig(process.env)
      : loadConfig(process.env, { authSecrets: false });
  } catch (error) {
    exitOnStartupFailure('openq', error);
  }
  // Before any service starts, so that every span has a provider (a no-op unless an OTLP endpoint is set).
  await startTracing(config, names.length === 1 ? `openq-${names[0]}` : 'openq');
  if (names.includes('questions')) await startQuestions(config);
  if (names.includes('gates')) await startGates(config);
  if (names.includes('context')) await startContext(config);
  if (names.includes('notifier')) await startNotifier(config);
  if (names.includes('gateway')) {
    await startGateway(loadGatewayConfig(process.env));
    const url = `http://localhost:${config.ports.gateway}`;
    const lines = [
      '',
      `openq is running: ${url}`,
      config.production ? '' : `  sign in (dev):   ${url}/dev/login`,
      `  API docs:        ${url}/docs`,
      `  health:          ${url}/readyz`,
      quiet ? '  logs:            warnings and errors only (LOG_LEVEL=info for every request)' : '',
      ...embedded,
      embedded.length > 0
        ? '  stop:            Ctrl-C, or `npm run openq -- stop` from another terminal'
        : '',
      '',
    ].filter((l, i, all) => l !== '' || i === 0 || i === all.length - 1);
    process.stdout.write(`${lines.join('\n')}\n`);
  }
}
