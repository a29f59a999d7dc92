import {
  Global,
  Inject,
  Injectable,
  Module,
  type DynamicModule,
  type OnApplicationShutdown,
} from '@nestjs/common';
import type { NatsConnection } from 'nats';
import { RpcClient } from '@openq/messaging';
import { connectNats } from '@openq/platform';
import { ServicesClient } from '../http/services-client';

export const NATS_CONNECTION = Symbol('NATS_CONNECTION');

/** Drains the connection after the HTTP server has stopped taking requests. */
@Injectable()
class NatsDrain implements OnApplicationShutdown {
  constructor(@Inject(NATS_CONNECTION) private readonly nc: NatsConnection) {}

  async onApplicationShutdown(): Promise<void> {
    if (!this.nc.isClosed()) await this.nc.drain().catch(() => this.nc.close());
  }
}

export interface NatsSettings {
  url: string;
  rpcTimeoutMs: number;
}

/** The gateway's one NATS connection, the RPC client over it, and the services client. */
@Global()
@Module({})
export class NatsModule {
  static forRoot(settings: NatsSettings): DynamicModule {
    return {
      module: NatsModule,
      providers: [
        { provide: NATS_CONNECTION, useFactory: () => connectNats(settings.url, 'openq-gateway') },
        {
          provide: RpcClient,
          useFactory: (nc: NatsConnection) => new RpcClient(nc, settings.rpcTimeoutMs),
          inject: [NATS_CONNECTION],
        },
        ServicesClient,
        NatsDrain,
      ],
      exports: [NATS_CONNECTION, RpcClient, ServicesClient],
    };
  }
}
