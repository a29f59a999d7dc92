import { commandRegistry, eventRegistry } from '@openq/contracts';
import { loadConfig, startDomainService, type DomainService, type OpenqConfig } from '@openq/platform';
import { analyticsGauges } from './context/analytics.gauges';
import { ContextModule } from './context/context.module';
import { CONTEXT_MIGRATIONS } from './context/migrations';

/** Starts the context service: stories, the decision index, dev kickoff, QA cut, turn context. */
export function startContext(
  config: OpenqConfig = loadConfig(process.env, { authSecrets: false }),
  overrides: { httpPort?: number; embedded?: boolean; poolSize?: number } = {},
): Promise<DomainService> {
  return startDomainService({
    name: 'context',
    config,
    module: ContextModule,
    migrations: CONTEXT_MIGRATIONS as never,
    gauges: analyticsGauges(),
    transport: { eventRegistry, commandRegistry, background: {} },
    ...overrides,
  });
}
