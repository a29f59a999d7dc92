import { Body, Controller, Delete, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { GatesCommand, PipelineQueueQuery, RepoFreezeBody } from '@openq/contracts';
import { CurrentUser } from '../auth/current-user.decorator';
import { MinRole } from '../auth/route-access';
import type { AuthenticatedUser } from '../auth/roles';
import { UserApi } from '../http/api-docs.decorators';
import { IdParam } from '../http/params';
import { CallHeaders, type RpcHeaders } from '../http/rpc-headers.decorator';
import { ServicesClient } from '../http/services-client';

/** The analyst pipeline (SPEC §7, §11.3): the per-repo queue, operators' pause / resume, repo freezes. */
@UserApi('pipeline')
@Controller('projects/:projectId/pipeline')
export class PipelineController {
  constructor(private readonly services: ServicesClient) {}

  @Get('queue')
  @MinRole('viewer')
  @ApiOperation({ summary: 'Queue snapshot, optionally of one repo' })
  queue(
    @IdParam('projectId') projectId: string,
    @Query() query: PipelineQueueQuery,
    @CallHeaders() headers: RpcHeaders,
  ) {
    return this.services.ask(
      GatesCommand.pipelineQueue,
      { projectId, ...(query.repo ? { repo: query.repo } : {}) },
      headers,
    );
  }

  @Post('tasks/:taskId/pause')
  @HttpCode(200)
  @MinRole('maintainer')
  @ApiOperation({ summary: 'Pause a pipeline task (source operator)' })
  pause(
    @IdParam('projectId') projectId: string,
    @IdParam('taskId') taskId: string,
    @CurrentUser() user: AuthenticatedUser,
    @CallHeaders() headers: RpcHeaders,
  ) {
    return this.services.ask(GatesCommand.pipelinePause, { projectId, taskId, userId: user.id }, headers);
  }

  @Post('tasks/:taskId/resume')
  @HttpCode(200)
  @MinRole('maintainer')
  @ApiOperation({ summary: 'Resume a paused pipeline task' })
  resume(
    @IdParam('projectId') projectId: string,
    @IdParam('taskId') taskId: string,
    @CurrentUser() user: AuthenticatedUser,
    @CallHeaders() headers: RpcHeaders,
  ) {
    return this.services.ask(GatesCommand.pipelineResume, { projectId, taskId, userId: user.id }, headers);
  }

  @Post('repos/:repo/freeze')
  @HttpCode(200)
  @MinRole('maintainer')
  @ApiOperation({ summary: 'Freeze a repo: no task of it enters analysis (already frozen: 200, unchanged)' })
  freeze(
    @IdParam('projectId') projectId: string,
    @IdParam('repo') repo: string,
    @Body() body: RepoFreezeBody,
    @CurrentUser() user: AuthenticatedUser,
    @CallHeaders() headers: RpcHeaders,
  ) {
    return this.services.ask(
      GatesCommand.pipelineFreeze,
      { projectId, repo, userId: user.id, motivo: body.motivo },
      headers,
    );
  }

  @Delete('repos/:repo/freeze')
  @HttpCode(200)
  @MinRole('maintainer')
  @ApiOperation({ summary: 'Lift the freeze of a repo; its waiting tasks are admitted again' })
  unfreeze(
    @IdParam('projectId') projectId: string,
    @IdParam('repo') repo: string,
    @CurrentUser() user: AuthenticatedUser,
    @CallHeaders() headers: RpcHeaders,
  ) {
    return this.services.ask(GatesCommand.pipelineUnfreeze, { projectId, repo, userId: user.id }, headers);
  }
}
