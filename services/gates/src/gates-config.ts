import { Global, Module, type DynamicModule } from '@nestjs/common';
import type { OpenqConfig } from '@openq/platform';

/** The validated configuration, injectable by its token. */
export const OPENQ_CONFIG = Symbol('openq:config');

@Global()
@Module({})
export class GatesConfigModule {
  static forRoot(config: OpenqConfig): DynamicModule {
    return {
      module: GatesConfigModule,
      providers: [{ provide: OPENQ_CONFIG, useValue: config }],
      exports: [OPENQ_CONFIG],
    };
  }
}
