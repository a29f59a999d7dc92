import { Controller, Get, Req, Res } from '@nestjs/common';
import { ApiOperation, ApiProduces } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { userTokenOf } from '../auth/credentials';
import { MinRole } from '../auth/route-access';
import type { AuthenticatedUser } from '../auth/roles';
import { CurrentUser } from '../auth/current-user.decorator';
import { UserApi } from '../http/api-docs.decorators';
import { IdParam } from '../http/params';
import { LiveStreams } from './live-streams';

/**
 * `GET /projects/:projectId/stream` (SPEC §4): the project's events as Server-Sent Events.
 * `EventSource` sends no `Authorization` header, so the page relies on the `openq_token`
 * cookie (the user guard reads both); a token in the query string is not accepted, since URLs
 * end up in logs and browser history.
 */
@UserApi('live')
@Controller('projects/:projectId/stream')
export class ProjectStreamController {
  constructor(private readonly streams: LiveStreams) {}

  @Get()
  @MinRole('viewer')
  @ApiProduces('text/event-stream')
  @ApiOperation({
    summary:
      'Live events of the project (SSE): question.*, decision.*, gate.*, pipeline.* (id = stream sequence), open_count, ready; Last-Event-ID resumes',
  })
  async stream(
    @IdParam('projectId') projectId: string,
    @CurrentUser() user: AuthenticatedUser,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    await this.streams.open(projectId, user.id, request, reply, expiryOf(userTokenOf(request.headers)));
  }
}

/**
 * When the (already verified) token expires, in epoch ms: the stream ends then, so a revoked or
 * expired session does not keep receiving events on an old connection.
 */
export function expiryOf(token: string | null): number | null {
  const payload = token?.split('.')[1];
  if (!payload) return null;
  try {
    const exp = (JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { exp?: unknown }).exp;
    return typeof exp === 'number' && Number.isFinite(exp) ? exp * 1000 : null;
  } catch {
    return null;
  }
}
