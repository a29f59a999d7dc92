import { Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { ContextCommand } from '@openq/contracts';
import { CurrentUser } from '../auth/current-user.decorator';
import { MinRole } from '../auth/route-access';
import type { AuthenticatedUser } from '../auth/roles';
import { InternalApi, UserApi } from '../http/api-docs.decorators';
import { IdParam } from '../http/params';
import { CallHeaders, type RpcHeaders } from '../http/rpc-headers.decorator';
import { ServicesClient } from '../http/services-client';

/** SPEC §11.3: archiving stays for drafts (ADR 0214 §8); the two doors of §6.4, only the actor differs. */
@UserApi('context')
@Controller('projects/:projectId/stories/:storyId/archive')
export class StoryArchiveController {
  constructor(private readonly services: ServicesClient) {}

  @Post()
  @HttpCode(200)
  @MinRole('developer')
  @ApiOperation({ summary: 'Archive a draft story (already archived: 200 again, no second event)' })
  archive(
    @IdParam('projectId') projectId: string,
    @IdParam('storyId') storyId: string,
    @CurrentUser() user: AuthenticatedUser,
    @CallHeaders() headers: RpcHeaders,
  ) {
    return this.services.ask(
      ContextCommand.archiveStory,
      { projectId, storyId, actor: { kind: 'user', id: user.id } },
      headers,
    );
  }
}

/** The `agent/po` door. */
@InternalApi('context')
@Controller('internal/projects/:projectId/stories/:storyId/archive')
export class AgentStoryArchiveController {
  constructor(private readonly services: ServicesClient) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({ summary: 'Archive a draft story as agent/po' })
  archive(
    @IdParam('projectId') projectId: string,
    @IdParam('storyId') storyId: string,
    @CallHeaders() headers: RpcHeaders,
  ) {
    return this.services.ask(
      ContextCommand.archiveStory,
      { projectId, storyId, actor: { kind: 'agent', id: 'po' } },
      headers,
    );
  }
}
