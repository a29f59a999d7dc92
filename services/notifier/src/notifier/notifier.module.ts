import {
  Inject,
  Injectable,
  Module,
  type BeforeApplicationShutdown,
  type DynamicModule,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { DataSource } from 'typeorm';
import { closeChannelSenders } from './adapters/channels/senders';
import { ClockTicker } from './commands/tick-clock/clock-ticker';
import { DeliverySender } from './commands/send-delivery/delivery-sender';
import { EngineSender } from './engines/commands/send-engine-delivery/engine-sender';
import { EngineSubscriptionHint } from './engines/store/engine-subscription-hint';
import { EnginesEventsController } from './engines/engines.events.controller';
import { EnginesRequestsController } from './engines/engines.requests.controller';
import { LanguagesRequestsController } from './language/languages.requests.controller';
import { SlackLinksRequestsController } from './slack/slack-links.requests.controller';
import { NotifierEventsController } from './notifier.events.controller';
import { NotifierRequestsController } from './notifier.requests.controller';
import { NOTIFIER_RUNTIME, type NotifierRuntime } from './notifier-runtime';

/**
 * Starts the sender loop and the questions' clock with the app, and stops them (sends in flight
 * finish) before the database closes.
 */
@Injectable()
class SenderLifecycle implements OnApplicationBootstrap, BeforeApplicationShutdown {
  constructor(
    private readonly dataSource: DataSource,
    @Inject(NOTIFIER_RUNTIME) private readonly runtime: NotifierRuntime,
  ) {}

  onApplicationBootstrap(): void {
    // A hybrid app (HTTP + the JetStream transport) calls the bootstrap hooks once per part: a
    // second sender and ticker would run unstopped, polling a closed database after shutdown
    // ("Driver not Connected", issue #34). One of each.
    if (this.runtime.sender) return;
    const { settings, senders } = this.runtime;
    this.runtime.sender = new DeliverySender(this.dataSource, senders, {
      retry: settings.retry,
      sendTimeoutMs: settings.sendTimeoutMs,
      concurrency: settings.concurrency,
      pollMs: settings.pollMs,
      links: this.runtime.links,
      engines: new EngineSender(this.dataSource, {
        retry: settings.retry,
        timeoutMs: settings.sendTimeoutMs,
        policy: settings.outbound,
      }),
      ...(this.runtime.now ? { now: this.runtime.now } : {}),
    });
    this.runtime.sender.start();
    this.runtime.clock = new ClockTicker(this.dataSource, {
      tickMs: settings.clockTickMs,
      batch: settings.clockBatch,
      publicUrl: settings.publicUrl,
      kinds: this.runtime.kinds,
      ...(this.runtime.now ? { now: this.runtime.now } : {}),
      planned: () => this.runtime.sender?.kick(),
    });
    this.runtime.clock.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.runtime.clock?.stop();
    await this.runtime.sender?.stop();
    closeChannelSenders(this.runtime.senders);
  }
}

@Module({})
export class NotifierModule {
  static forRoot(runtime: NotifierRuntime): DynamicModule {
    return {
      module: NotifierModule,
      controllers: [
        NotifierEventsController,
        NotifierRequestsController,
        EnginesEventsController,
        EnginesRequestsController,
        SlackLinksRequestsController,
        LanguagesRequestsController,
      ],
      providers: [{ provide: NOTIFIER_RUNTIME, useValue: runtime }, SenderLifecycle, EngineSubscriptionHint],
    };
  }
}
