import { Module, type DynamicModule } from '@nestjs/common';
import type { SlackSettings } from '../config';
import { SlackInteractionsController, SLACK_SETTINGS } from './slack-interactions.controller';
import { SlackLinkController } from './slack-link.controller';

/** [openq] issue #34 Slack's buttons answer in Slack: the callback route and the caller's link. */
@Module({})
export class SlackModule {
  static forRoot(settings: SlackSettings): DynamicModule {
    return {
      module: SlackModule,
      controllers: [SlackInteractionsController, SlackLinkController],
      providers: [{ provide: SLACK_SETTINGS, useValue: settings }],
    };
  }
}
