import { Module, type DynamicModule } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { JwtVerifier } from './jwt-verifier';
import { keySourceFor } from './key-sources';
import { ServiceTokenMatcher } from './service-token';
import { ServiceTokenGuard } from './service-token.guard';
import { UserAuthGuard } from './user-auth.guard';

export interface AuthSettings {
  jwtSecret: string;
  jwks: string | null;
  jwtIssuer: string | null;
  jwtAudience: string | null;
  serviceTokens: string[];
}

/** Both guards, global: each acts only on its own zone of routes (see `zoneOf`). */
@Module({})
export class AuthModule {
  static forRoot(settings: AuthSettings): DynamicModule {
    return {
      module: AuthModule,
      providers: [
        {
          provide: JwtVerifier,
          useFactory: () =>
            new JwtVerifier(keySourceFor(settings), {
              issuer: settings.jwtIssuer,
              audience: settings.jwtAudience,
            }),
        },
        { provide: ServiceTokenMatcher, useFactory: () => new ServiceTokenMatcher(settings.serviceTokens) },
        { provide: APP_GUARD, useClass: ServiceTokenGuard },
        { provide: APP_GUARD, useClass: UserAuthGuard },
      ],
    };
  }
}
