import { Controller, Get, Query } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { ContextCommand, TurnContextQuery } from '@openq/contracts';
import { MinRole } from '../auth/route-access';
import { InternalApi, UserApi } from '../http/api-docs.decorators';
import { IdParam } from '../http/params';
import { CallHeaders, type RpcHeaders } from '../http/rpc-headers.decorator';
import { ServicesClient } from '../http/services-client';

/** What the agents read (SPEC §6), for a person looking at it. */
@UserApi('context')
@Controller('projects/:projectId/tasks/:taskId')
export class TaskContextController {
  constructor(private readonly services: ServicesClient) {}

  @Get('dev-context')
  @MinRole('viewer')
  @ApiOperation({ summary: 'Dev kickoff: story + user decisions (§6.1)' })
  devContext(
    @IdParam('projectId') projectId: string,
    @IdParam('taskId') taskId: string,
    @CallHeaders() headers: RpcHeaders,
  ) {
    return this.services.ask(ContextCommand.devContext, { projectId, taskId }, headers);
  }

  @Get('qa-cut')
  @MinRole('viewer')
  @ApiOperation({ summary: 'QA cut: task, story, decisions and the cut rule (§6.2)' })
  qaCut(
    @IdParam('projectId') projectId: string,
    @IdParam('taskId') taskId: string,
    @CallHeaders() headers: RpcHeaders,
  ) {
    return this.services.ask(ContextCommand.qaCut, { projectId, taskId }, headers);
  }
}

/** The same context for the engine, plus the askers' turn context (service token). */
@InternalApi('context')
@Controller('internal/projects/:projectId')
export class AgentContextController {
  constructor(private readonly services: ServicesClient) {}

  @Get('tasks/:taskId/dev-context')
  @ApiOperation({ summary: 'Dev kickoff (§6.1)' })
  devContext(
    @IdParam('projectId') projectId: string,
    @IdParam('taskId') taskId: string,
    @CallHeaders() headers: RpcHeaders,
  ) {
    return this.services.ask(ContextCommand.devContext, { projectId, taskId }, headers);
  }

  @Get('tasks/:taskId/qa-cut')
  @ApiOperation({ summary: 'QA cut (§6.2)' })
  qaCut(
    @IdParam('projectId') projectId: string,
    @IdParam('taskId') taskId: string,
    @CallHeaders() headers: RpcHeaders,
  ) {
    return this.services.ask(ContextCommand.qaCut, { projectId, taskId }, headers);
  }

  @Get('turn-context')
  @ApiOperation({ summary: "An asker's turn: the central instruction and the open questions (§6.3)" })
  turnContext(
    @IdParam('projectId') projectId: string,
    @Query() query: TurnContextQuery,
    @CallHeaders() headers: RpcHeaders,
  ) {
    return this.services.ask(ContextCommand.turnContext, { projectId, role: query.role }, headers);
  }
}
