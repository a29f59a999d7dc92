import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { DataSource } from 'typeorm';
import {
  Commands,
  type Refusal,
  type SetSlackLinkCommand,
  type SlackLinkView,
  type SlackUserCommand,
  type SlackUserReply,
  type UserCommand,
} from '@openq/contracts';
import { setSlackLinkHandler } from './commands/set-slack-link/set-slack-link.handler';
import { slackLinkQuery } from './queries/slack-link.query';
import { slackUserQuery } from './queries/slack-user.query';

/**
 * Issue #34 (SPEC §12.5) a person's Slack member id (`openq.notifier.slack-link`, `set-slack-link`;
 * the gateway's `/me/slack`) and who a Slack member id is (`slack-user`, asked by the gateway when
 * a Slack button is clicked). A member id belongs to one openq user: another's is 409.
 */
@Controller()
export class SlackLinksRequestsController {
  constructor(private readonly dataSource: DataSource) {}

  @MessagePattern(Commands.notifier.slackLink.type)
  slackLink(@Payload() cmd: UserCommand): Promise<SlackLinkView> {
    return slackLinkQuery(this.dataSource, cmd);
  }

  @MessagePattern(Commands.notifier.setSlackLink.type)
  setSlackLink(@Payload() cmd: SetSlackLinkCommand): Promise<SlackLinkView | Refusal> {
    return setSlackLinkHandler(this.dataSource, cmd);
  }

  @MessagePattern(Commands.notifier.slackUser.type)
  slackUser(@Payload() cmd: SlackUserCommand): Promise<SlackUserReply> {
    return slackUserQuery(this.dataSource, cmd);
  }
}
