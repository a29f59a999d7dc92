import { Module, type DynamicModule } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { NATS_CONNECTION } from '../messaging/nats.module';
import type { RateLimitSettings } from '../http/rate-limit.config';
import { RATE_LIMIT_NATS, RATE_LIMIT_SETTINGS, RateLimits } from '../http/rate-limits';
import { JwtVerifier } from './jwt-verifier';
import { keySourceFor } from './key-sources';
import { ServiceTokenMatcher } from './service-token';
import { ServiceTokenGuard } from './service-token.guard';
import { UserAuthGuard } from './user-auth.guard';

export interface AuthSettings {
  jwtSecret: string;
  jwks: string | null;
  jwksCacheMs?: number;
  jwksRefetchMs?: number;
  jwksTimeoutMs?: number;
  jwtIssuer: string | null;
  jwtAudience: string | null;
  serviceTokens: string[];
}

/** Both guards, global: each acts only on its own zone of routes (see `zoneOf`). */
@Module({})
export class AuthModule {
  static forRoot(settings: AuthSettings, rateLimits: RateLimitSettings): DynamicModule {
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
        { provide: RATE_LIMIT_SETTINGS, useValue: rateLimits },
        { provide: RATE_LIMIT_NATS, useExisting: NATS_CONNECTION },
        RateLimits,
        { provide: APP_GUARD, useClass: ServiceTokenGuard },
        { provide: APP_GUARD, useClass: UserAuthGuard },
      ],
      exports: [RateLimits],
    };
  }
}
