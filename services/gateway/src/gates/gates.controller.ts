import { Controller, Get, HttpCode, Post } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { GATES, GatesCommand, type Gate } from '@openq/contracts';
import { CurrentUser } from '../auth/current-user.decorator';
import { MinRole } from '../auth/route-access';
import type { AuthenticatedUser } from '../auth/roles';
import { UserApi } from '../http/api-docs.decorators';
import { IdParam, OneOfParam } from '../http/params';
import { CallHeaders, type RpcHeaders } from '../http/rpc-headers.decorator';
import { ServicesClient } from '../http/services-client';

/** Gate cycles of a task (SPEC §4, §5): see them, resume an idle-parked one. */
@UserApi('gates')
@Controller('projects/:projectId/tasks/:taskId/gates')
export class GatesController {
  constructor(private readonly services: ServicesClient) {}

  @Get()
  @MinRole('viewer')
  @ApiOperation({ summary: 'Gate cycles of the task' })
  list(
    @IdParam('projectId') projectId: string,
    @IdParam('taskId') taskId: string,
    @CallHeaders() headers: RpcHeaders,
  ) {
    return this.services.ask(GatesCommand.list, { projectId, taskId }, headers);
  }

  @Post(':gate/resume')
  @HttpCode(200)
  @MinRole('developer')
  @ApiOperation({ summary: 'Resume an idle-parked cycle (409 gate_nao_estacionado / gate_aguarda_decisao)' })
  resume(
    @IdParam('projectId') projectId: string,
    @IdParam('taskId') taskId: string,
    @OneOfParam('gate', GATES) gate: Gate,
    @CurrentUser() user: AuthenticatedUser,
    @CallHeaders() headers: RpcHeaders,
  ) {
    return this.services.ask(GatesCommand.resume, { projectId, taskId, gate, userId: user.id }, headers);
  }
}
