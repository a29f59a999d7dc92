import { Body, Controller, Delete, Get, Put } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { ClockPolicyBody, NotifierCommand } from '@openq/contracts';
import { CurrentUser } from '../auth/current-user.decorator';
import { MinRole } from '../auth/route-access';
import type { AuthenticatedUser } from '../auth/roles';
import { UserApi } from '../http/api-docs.decorators';
import { IdParam } from '../http/params';
import { CallHeaders, type RpcHeaders } from '../http/rpc-headers.decorator';
import { RelaysJson, ServicesClient } from '../http/services-client';

/**
 * [openq] issue #17 the clock of a project's questions: when an open question is due, when its
 * author is reminded, when (and whom) the notifier tells that the author is late. Maintainers set
 * it; everyone on the project reads it and sees where each open question stands. The clock only
 * tells people: it never answers, resumes or decides anything.
 */
@UserApi('notifications')
@Controller('projects/:projectId')
export class ClockController {
  constructor(private readonly services: ServicesClient) {}

  @Get('clock-policy')
  @RelaysJson()
  @MinRole('viewer')
  @ApiOperation({ summary: "The project's clock policy (policy: null when it has none)" })
  policy(
    @IdParam('projectId') projectId: string,
    @CurrentUser() user: AuthenticatedUser,
    @CallHeaders() headers: RpcHeaders,
  ) {
    return this.services.relay(
      NotifierCommand.clockPolicy,
      { projectId, userId: user.id, role: user.role },
      headers,
    );
  }

  @Put('clock-policy')
  @MinRole('maintainer')
  @ApiOperation({
    summary:
      'Set the clock policy: { dueAfter, reminders?, escalateAfter?, escalateTo? } in business time of the author ' +
      '(400 politica_invalida, lembretes_fora_de_ordem, lembrete_no_prazo, escalonamento_antes_do_prazo, ' +
      'escalonamento_antes_de_lembrete, with details.field)',
  })
  setPolicy(
    @IdParam('projectId') projectId: string,
    @Body() body: ClockPolicyBody,
    @CurrentUser() user: AuthenticatedUser,
    @CallHeaders() headers: RpcHeaders,
  ) {
    return this.services.ask(
      NotifierCommand.setClockPolicy,
      { projectId, userId: user.id, role: user.role, policy: { ...body } },
      headers,
    );
  }

  @Delete('clock-policy')
  @MinRole('maintainer')
  @ApiOperation({ summary: 'Remove the clock policy: no more reminders, due notices or escalations' })
  removePolicy(
    @IdParam('projectId') projectId: string,
    @CurrentUser() user: AuthenticatedUser,
    @CallHeaders() headers: RpcHeaders,
  ) {
    return this.services.ask(
      NotifierCommand.setClockPolicy,
      { projectId, userId: user.id, role: user.role, policy: null },
      headers,
    );
  }

  @Get('open-questions/clock')
  @RelaysJson()
  @MinRole('viewer')
  @ApiOperation({
    summary:
      'Where each open question stands on the clock: on_time | due_soon | overdue, dueAt, the author (who is late) ' +
      'and the notices given',
  })
  state(
    @IdParam('projectId') projectId: string,
    @CurrentUser() user: AuthenticatedUser,
    @CallHeaders() headers: RpcHeaders,
  ) {
    return this.services.relay(
      NotifierCommand.clockState,
      { projectId, userId: user.id, role: user.role },
      headers,
    );
  }
}
