import { Module, type DynamicModule } from '@nestjs/common';
import type { NatsConnection } from 'nats';
import type { OpenqConfig } from '@openq/platform';
import { NATS_CONNECTION } from '../messaging/nats.module';
import { LinkRegistry } from './link-registry';
import { ONE_TAP_SETTINGS, OneTapController, type OneTapSettings } from './one-tap.controller';

/** An hour past the longest a link lives: a used link stays used for as long as it verifies. */
const GRACE_MS = 3600_000;

/** [openq] issue #17 `GET|POST /l/:token`: one-tap answers from a notification. */
@Module({})
export class OneTapModule {
  static forRoot(config: Pick<OpenqConfig, 'links'>): DynamicModule {
    const lifetimeMs = config.links.ttlS * 1000;
    const settings: OneTapSettings = {
      secrets: config.links.secrets,
      maxLifetimeMs: lifetimeMs + 60_000,
      publicOrigin: new URL(config.links.publicUrl).origin,
    };
    return {
      module: OneTapModule,
      controllers: [OneTapController],
      providers: [
        { provide: ONE_TAP_SETTINGS, useValue: settings },
        {
          provide: LinkRegistry,
          inject: [NATS_CONNECTION],
          useFactory: (nc: NatsConnection) => new LinkRegistry(nc, lifetimeMs + GRACE_MS),
        },
      ],
    };
  }
}
