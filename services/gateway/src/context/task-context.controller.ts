import { Controller, Get, Query } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { ContextCommand, TurnContextQuery } from '@openq/contracts';
import { MinRole } from '../auth/route-access';
import { InternalApi, UserApi } from '../http/api-docs.decorators';
import { IdParam } from '../http/params';
import { CallHeaders, type RpcHeaders } from '../http/rpc-headers.decorator';
import { RelaysJson, ServicesClient } from '../http/services-client';

/** What the agents read (SPEC §6), for a person looking at it. */
@UserApi('context')
@Controller('projects/:projectId/tasks/:taskId')
export class TaskContextController {
  constructor(private readonly services: ServicesClient) {}

  @Get('dev-context')
  @RelaysJson()
  @MinRole('viewer')
  @ApiOperation({ summary: 'Dev kickoff: story + user decisions (§6.1)' })
  devContext(
    @IdParam('projectId') projectId: string,
    @IdParam('taskId') taskId: string,
    @CallHeaders() headers: RpcHeaders,
  ) {
    return this.services.relay(ContextCommand.devContext, { projectId, taskId }, headers);
  }

  @Get('qa-cut')
  @RelaysJson()
  @MinRole('viewer')
  @ApiOperation({ summary: 'QA cut: task, story, decisions and the cut rule (§6.2)' })
  qaCut(
    @IdParam('projectId') projectId: string,
    @IdParam('taskId') taskId: string,
    @CallHeaders() headers: RpcHeaders,
  ) {
    return this.services.relay(ContextCommand.qaCut, { projectId, taskId }, headers);
  }
}

/** The same context for the engine, plus the askers' turn context (service token). */
@InternalApi('context')
@Controller('internal/projects/:projectId')
export class AgentContextController {
  constructor(private readonly services: ServicesClient) {}

  @Get('tasks/:taskId/dev-context')
  @RelaysJson()
  @ApiOperation({ summary: 'Dev kickoff (§6.1)' })
  devContext(
    @IdParam('projectId') projectId: string,
    @IdParam('taskId') taskId: string,
    @CallHeaders() headers: RpcHeaders,
  ) {
    return this.services.relay(ContextCommand.devContext, { projectId, taskId }, headers);
  }

  @Get('tasks/:taskId/qa-cut')
  @RelaysJson()
  @ApiOperation({ summary: 'QA cut (§6.2)' })
  qaCut(
    @IdParam('projectId') projectId: string,
    @IdParam('taskId') taskId: string,
    @CallHeaders() headers: RpcHeaders,
  ) {
    return this.services.relay(ContextCommand.qaCut, { projectId, taskId }, headers);
  }

  @Get('turn-context')
  @RelaysJson()
  @ApiOperation({ summary: "An asker's turn: the central instruction and the open questions (§6.3)" })
  turnContext(
    @IdParam('projectId') projectId: string,
    @Query() query: TurnContextQuery,
    @CallHeaders() headers: RpcHeaders,
  ) {
    return this.services.relay(ContextCommand.turnContext, { projectId, role: query.role }, headers);
  }
}
