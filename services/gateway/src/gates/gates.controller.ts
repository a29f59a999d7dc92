import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import {
  GATES,
  GateHistoryQuery,
  GatesCommand,
  QuestionsCommand,
  ResumeGateBody,
  type Gate,
} from '@openq/contracts';
import { CurrentUser } from '../auth/current-user.decorator';
import { MinRole } from '../auth/route-access';
import type { AuthenticatedUser } from '../auth/roles';
import { requireRole } from '../auth/user-auth.guard';
import { UserApi } from '../http/api-docs.decorators';
import { answersForOf } from './answers-for';
import { IdParam, OneOfParam } from '../http/params';
import { CallHeaders, type RpcHeaders } from '../http/rpc-headers.decorator';
import { RelaysJson, ServicesClient } from '../http/services-client';

/** Gate cycles of a task (SPEC §4, §5, §11.1): see them and their history, resume a parked one. */
@UserApi('gates')
@Controller('projects/:projectId/tasks/:taskId/gates')
export class GatesController {
  constructor(private readonly services: ServicesClient) {}

  @Get()
  @RelaysJson()
  @MinRole('viewer')
  @ApiOperation({ summary: 'Gate cycles of the task' })
  async list(
    @IdParam('projectId') projectId: string,
    @IdParam('taskId') taskId: string,
    @CurrentUser() user: AuthenticatedUser,
    @CallHeaders() headers: RpcHeaders,
  ) {
    // §12.1 `waitingForYou` is the caller's: whom they may answer for comes from the policy's owner.
    const answersFor = await answersForOf(this.services, projectId, user.id, headers);
    return this.services.relay(
      GatesCommand.list,
      { projectId, taskId, userId: user.id, answersFor },
      headers,
    );
  }

  @Post(':gate/resume')
  @HttpCode(200)
  @MinRole('developer')
  @ApiOperation({
    summary:
      'Resume an idle-parked cycle (developer; 409 gate_nao_estacionado / gate_aguarda_decisao), or with ' +
      '{ override: true, motivo } a cycle parked on a user decision (maintainer; the questions stay open)',
  })
  async resume(
    @IdParam('projectId') projectId: string,
    @IdParam('taskId') taskId: string,
    @OneOfParam('gate', GATES) gate: Gate,
    @Body() body: ResumeGateBody,
    @CurrentUser() user: AuthenticatedUser,
    @CallHeaders() headers: RpcHeaders,
  ) {
    const override = body.override === true && body.motivo !== undefined;
    // §11.1 only a maintainer or owner resumes without the answer; a developer keeps the §4 resume.
    if (override) requireRole(user.role, 'maintainer', projectId);
    // §12.1 then the project's policy, from its owner: off (the default) is 403 override_desligado.
    const overrideAllowed = override
      ? (await this.services.ask(QuestionsCommand.policiesGet, { projectId }, headers)).overrideDeMantenedor
      : false;
    return this.services.ask(
      GatesCommand.resume,
      {
        projectId,
        taskId,
        gate,
        userId: user.id,
        ...(override ? { override, motivo: body.motivo, overrideAllowed } : {}),
      },
      headers,
    );
  }

  @Get(':gate/history')
  @RelaysJson()
  @MinRole('viewer')
  @ApiOperation({ summary: "The gate's history, newest first: verdicts, parks, resumes (who and why)" })
  history(
    @IdParam('projectId') projectId: string,
    @IdParam('taskId') taskId: string,
    @OneOfParam('gate', GATES) gate: Gate,
    @Query() query: GateHistoryQuery,
    @CallHeaders() headers: RpcHeaders,
  ) {
    return this.services.relay(
      GatesCommand.history,
      { projectId, taskId, gate, limit: query.limit },
      headers,
    );
  }
}
