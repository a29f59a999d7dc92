import { Body, Controller, Get, HttpCode, Post, Put, Query } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { DeliveryListQuery, NotificationChannelsBody, NotifierCommand } from '@openq/contracts';
import { CurrentUser } from '../auth/current-user.decorator';
import { MinRole } from '../auth/route-access';
import type { AuthenticatedUser } from '../auth/roles';
import { UserApi } from '../http/api-docs.decorators';
import { IdParam, UuidParam } from '../http/params';
import { CallHeaders, type RpcHeaders } from '../http/rpc-headers.decorator';
import { RelaysJson, ServicesClient } from '../http/services-client';

/**
 * [openq] issue #17 the caller's own notification channels on a project (e-mail, Slack, a signed
 * webhook) and what was sent to them: the delivery log, dead letters, redelivery. Anyone with a
 * role on the project manages their own; nobody sees another person's.
 */
@UserApi('notifications')
@Controller('projects/:projectId')
export class NotificationsController {
  constructor(private readonly services: ServicesClient) {}

  @Get('notification-channels')
  @RelaysJson()
  @MinRole('viewer')
  @ApiOperation({ summary: 'Your channels on this project (secrets shown masked)' })
  channels(
    @IdParam('projectId') projectId: string,
    @CurrentUser() user: AuthenticatedUser,
    @CallHeaders() headers: RpcHeaders,
  ) {
    return this.services.relay(
      NotifierCommand.channels,
      { projectId, userId: user.id, role: user.role },
      headers,
    );
  }

  @Put('notification-channels')
  @MinRole('viewer')
  @ApiOperation({
    summary: 'Set your channels: a kind left out stays, null removes it, an object replaces it whole',
  })
  setChannels(
    @IdParam('projectId') projectId: string,
    @Body() body: NotificationChannelsBody,
    @CurrentUser() user: AuthenticatedUser,
    @CallHeaders() headers: RpcHeaders,
  ) {
    return this.services.ask(
      NotifierCommand.setChannels,
      { projectId, userId: user.id, role: user.role, channels: body },
      headers,
    );
  }

  @Get('notifications/deliveries')
  @RelaysJson()
  @MinRole('viewer')
  @ApiOperation({
    summary: 'Your deliveries, newest first (status=dead: the dead letters, with their reason)',
  })
  deliveries(
    @IdParam('projectId') projectId: string,
    @Query() query: DeliveryListQuery,
    @CurrentUser() user: AuthenticatedUser,
    @CallHeaders() headers: RpcHeaders,
  ) {
    return this.services.relay(
      NotifierCommand.deliveries,
      { projectId, userId: user.id, status: query.status, limit: query.limit },
      headers,
    );
  }

  @Post('notifications/deliveries/:deliveryId/redeliver')
  @HttpCode(200)
  @MinRole('viewer')
  @ApiOperation({ summary: 'Send one of your deliveries again (same delivery id)' })
  redeliver(
    @IdParam('projectId') projectId: string,
    @UuidParam('deliveryId') deliveryId: string,
    @CurrentUser() user: AuthenticatedUser,
    @CallHeaders() headers: RpcHeaders,
  ) {
    return this.services.ask(NotifierCommand.redeliver, { projectId, userId: user.id, deliveryId }, headers);
  }
}
