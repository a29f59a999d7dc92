import { Body, Controller, Get, Put } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { NotifierCommand, SlackLinkBody } from '@openq/contracts';
import { CurrentIdentity } from '../auth/current-user.decorator';
import { AcrossProjects, MinRole } from '../auth/route-access';
import type { UserIdentity } from '../auth/roles';
import { UserApi } from '../http/api-docs.decorators';
import { CallHeaders, type RpcHeaders } from '../http/rpc-headers.decorator';
import { RelaysJson, ServicesClient } from '../http/services-client';

/**
 * [openq] issue #34 (SPEC §12.5) the caller's Slack member id, on every project: a click on a Slack
 * message's "Accept suggestion" answers as the openq user who linked the clicking member id.
 */
@UserApi('notifications')
@Controller('me/slack')
export class SlackLinkController {
  constructor(private readonly services: ServicesClient) {}

  @Get()
  @RelaysJson()
  @MinRole('viewer')
  @AcrossProjects()
  @ApiOperation({ summary: 'Your linked Slack member id ({ slackUserId: null } when none)' })
  get(@CurrentIdentity() identity: UserIdentity, @CallHeaders() headers: RpcHeaders) {
    return this.services.relay(NotifierCommand.slackLink, { userId: identity.id }, headers);
  }

  @Put()
  @MinRole('viewer')
  @AcrossProjects()
  @ApiOperation({
    summary:
      'Link your Slack member id ({ slackUserId: "U…" }; null unlinks); 409 slack_ja_vinculado when another ' +
      'openq user has it',
  })
  set(
    @Body() body: SlackLinkBody,
    @CurrentIdentity() identity: UserIdentity,
    @CallHeaders() headers: RpcHeaders,
  ) {
    return this.services.ask(
      NotifierCommand.setSlackLink,
      { userId: identity.id, slackUserId: body.slackUserId },
      headers,
    );
  }
}
