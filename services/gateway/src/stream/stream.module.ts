import { Module, type DynamicModule } from '@nestjs/common';
import type { NatsConnection } from 'nats';
import { RpcClient } from '@openq/messaging';
import { NATS_CONNECTION } from '../messaging/nats.module';
import { LiveStreams } from './live-streams';
import { MyStreamController } from './my-stream.controller';
import { ProjectStreamController } from './project-stream.controller';
import type { StreamSettings } from './stream.config';

/** The live stream route and the per-process machinery behind it. */
@Module({})
export class StreamModule {
  static forRoot(settings: StreamSettings): DynamicModule {
    return {
      module: StreamModule,
      controllers: [ProjectStreamController, MyStreamController],
      providers: [
        {
          provide: LiveStreams,
          useFactory: (nc: NatsConnection, rpc: RpcClient) => new LiveStreams(nc, rpc, settings),
          inject: [NATS_CONNECTION, RpcClient],
        },
      ],
      exports: [LiveStreams],
    };
  }
}
