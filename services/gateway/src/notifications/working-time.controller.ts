import { Body, Controller, Delete, Get, Put } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { NotifierCommand, WorkingTimeBody } from '@openq/contracts';
import { CurrentIdentity } from '../auth/current-user.decorator';
import { AcrossProjects, MinRole } from '../auth/route-access';
import type { UserIdentity } from '../auth/roles';
import { UserApi } from '../http/api-docs.decorators';
import { CallHeaders, type RpcHeaders } from '../http/rpc-headers.decorator';
import { RelaysJson, ServicesClient } from '../http/services-client';

/**
 * [openq] issue #17 the caller's own working time, on every project: time zone, working days and
 * hours (the clock counts a question's due time in its author's business time) and quiet hours
 * (nobody is told anything then).
 */
@UserApi('notifications')
@Controller('me/working-time')
export class WorkingTimeController {
  constructor(private readonly services: ServicesClient) {}

  @Get()
  @RelaysJson()
  @MinRole('viewer')
  @AcrossProjects()
  @ApiOperation({ summary: 'Your working time (isDefault: true when you set none: Mon–Fri 09:00–18:00 UTC)' })
  get(@CurrentIdentity() identity: UserIdentity, @CallHeaders() headers: RpcHeaders) {
    return this.services.relay(NotifierCommand.workingTime, { userId: identity.id }, headers);
  }

  @Put()
  @MinRole('viewer')
  @AcrossProjects()
  @ApiOperation({
    summary:
      'Set your working time: { timeZone, days, start, end, quietHours? } (400 horario_invalido, ' +
      'fuso_horario_desconhecido, silencio_cobre_o_expediente, with details.field)',
  })
  set(
    @Body() body: WorkingTimeBody,
    @CurrentIdentity() identity: UserIdentity,
    @CallHeaders() headers: RpcHeaders,
  ) {
    return this.services.ask(
      NotifierCommand.setWorkingTime,
      { userId: identity.id, workingTime: { ...body } },
      headers,
    );
  }

  @Delete()
  @MinRole('viewer')
  @AcrossProjects()
  @ApiOperation({ summary: 'Forget your working time: back to the default' })
  reset(@CurrentIdentity() identity: UserIdentity, @CallHeaders() headers: RpcHeaders) {
    return this.services.ask(
      NotifierCommand.setWorkingTime,
      { userId: identity.id, workingTime: null },
      headers,
    );
  }
}
