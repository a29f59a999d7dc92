import { Module, type DynamicModule } from '@nestjs/common';
import type { OpenqConfig } from '@openq/platform';
import { DEV_LOGIN_KEYS, DevLoginController, type DevLoginKeys } from './dev-login.controller';
import { InboxAssets } from './inbox-assets';
import { INBOX_OPTIONS, InboxController, type InboxOptions } from './inbox.controller';

/** Development sign-in exists outside production, and only where it can mint a token the gateway accepts. */
export function devLoginEnabled(config: Pick<OpenqConfig, 'production' | 'auth'>): boolean {
  return !config.production && config.auth.jwks === null;
}

/** The web inbox page and its files, `GET /me`, and (outside production) `/dev/login`. */
@Module({})
export class InboxModule {
  static forRoot(config: Pick<OpenqConfig, 'production' | 'auth'>): DynamicModule {
    const devLogin = devLoginEnabled(config);
    const options: InboxOptions = { devLogin };
    const keys: DevLoginKeys = {
      secret: config.auth.jwtSecret,
      issuer: config.auth.jwtIssuer,
      audience: config.auth.jwtAudience,
    };
    return {
      module: InboxModule,
      controllers: [InboxController, ...(devLogin ? [DevLoginController] : [])],
      providers: [
        { provide: InboxAssets, useFactory: () => new InboxAssets() },
        { provide: INBOX_OPTIONS, useValue: options },
        { provide: DEV_LOGIN_KEYS, useValue: keys },
      ],
    };
  }
}
