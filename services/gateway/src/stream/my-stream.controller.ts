import { Controller, Get, Req, Res } from '@nestjs/common';
import { ApiOperation, ApiProduces } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ACROSS_PROJECTS_MAX } from '@openq/contracts';
import { userTokenOf } from '../auth/credentials';
import { CurrentIdentity } from '../auth/current-user.decorator';
import { AcrossProjects, MinRole } from '../auth/route-access';
import type { UserIdentity } from '../auth/roles';
import { UserApi } from '../http/api-docs.decorators';
import { LiveStreams } from './live-streams';
import { expiryOf } from './project-stream.controller';

/**
 * [openq] issue #18 `GET /me/stream`: the live events of every project the token gives the caller
 * a role on (the projects of `GET /me/open-questions`), fanned in, in stream order, through the
 * same machinery and caps as `/projects/:projectId/stream` (one stream of the caller's share).
 * No `open_count`; a reconnection is told to reload (`ready` with `reset: true`) instead of
 * replaying what it missed.
 */
@UserApi('live')
@Controller('me/stream')
export class MyStreamController {
  constructor(private readonly streams: LiveStreams) {}

  @Get()
  @MinRole('viewer')
  @AcrossProjects()
  @ApiProduces('text/event-stream')
  @ApiOperation({
    summary:
      'Live events of every project your token gives you a role on (SSE, issue #18): question.*, decision.*, ' +
      `gate.*, pipeline.* of up to ${ACROSS_PROJECTS_MAX} projects (by id), ready; no open_count; a reconnection ` +
      'gets ready { reset: true } (reload the lists)',
  })
  async stream(
    @CurrentIdentity() identity: UserIdentity,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const projectIds = [...identity.roles.keys()].sort().slice(0, ACROSS_PROJECTS_MAX);
    await this.streams.open(projectIds, identity.id, request, reply, expiryOf(userTokenOf(request.headers)));
  }
}
