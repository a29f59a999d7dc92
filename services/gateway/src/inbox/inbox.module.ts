import { Module, type DynamicModule } from '@nestjs/common';
import type { OpenqConfig } from '@openq/platform';
import { DEV_LOGIN_KEYS, DevLoginController, type DevLoginKeys } from './dev-login.controller';
import { EmbedController } from './embed.controller';
import { InboxAssets } from './inbox-assets';
import { INBOX_OPTIONS, InboxController, type InboxOptions } from './inbox.controller';

/** Development sign-in exists outside production, and only where it can mint a token the gateway accepts. */
export function devLoginEnabled(config: Pick<OpenqConfig, 'production' | 'auth'>): boolean {
  return !config.production && config.auth.jwks === null;
}

/**
 * The web inbox page and its files, `GET /me`, (outside production) `/dev/login`, and the
 * embeddable pending block (SPEC §12.1).
 */
@Module({})
export class InboxModule {
  static forRoot(
    config: Pick<OpenqConfig, 'production' | 'auth'> & { embedAncestors?: readonly string[] },
  ): DynamicModule {
    const devLogin = devLoginEnabled(config);
    const options: InboxOptions = { devLogin, embedAncestors: config.embedAncestors ?? [] };
    const keys: DevLoginKeys = {
      secret: config.auth.jwtSecret,
      issuer: config.auth.jwtIssuer,
      audience: config.auth.jwtAudience,
    };
    return {
      module: InboxModule,
      controllers: [InboxController, EmbedController, ...(devLogin ? [DevLoginController] : [])],
      providers: [
        { provide: InboxAssets, useFactory: () => new InboxAssets() },
        { provide: INBOX_OPTIONS, useValue: options },
        { provide: DEV_LOGIN_KEYS, useValue: keys },
      ],
    };
  }
}
