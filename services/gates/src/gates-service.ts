import { Module } from '@nestjs/common';
import { commandRegistry, eventRegistry } from '@openq/contracts';
import { loadConfig, startDomainService, type DomainService, type OpenqConfig } from '@openq/platform';
import { GATES_MIGRATIONS } from './gates/migrations';
import { GatesModule } from './gates/gates.module';
import { PIPELINE_MIGRATIONS } from './pipeline/migrations';
import { PipelineModule } from './pipeline/pipeline.module';
import { GatesConfigModule } from './gates-config';

@Module({})
class GatesServiceModule {}

/** Starts the gates service: QA/secops gate cycles and the analyst pipeline profile (ADR-0053). */
export function startGates(
  config: OpenqConfig = loadConfig(process.env, { authSecrets: false }),
  overrides: { httpPort?: number; embedded?: boolean } = {},
): Promise<DomainService> {
  return startDomainService({
    name: 'gates',
    config,
    module: { module: GatesServiceModule, imports: [GatesConfigModule.forRoot(config), GatesModule, PipelineModule] },
    migrations: [...GATES_MIGRATIONS, ...PIPELINE_MIGRATIONS] as never,
    transport: { eventRegistry, commandRegistry },
    ...overrides,
  });
}
