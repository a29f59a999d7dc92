import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { ContextCommand, StoryCorrectionBody, type Actor } from '@openq/contracts';
import { CurrentUser } from '../auth/current-user.decorator';
import { MinRole } from '../auth/route-access';
import type { AuthenticatedUser } from '../auth/roles';
import { InternalApi, UserApi } from '../http/api-docs.decorators';
import { IdParam } from '../http/params';
import { CallHeaders, type RpcHeaders } from '../http/rpc-headers.decorator';
import { ServicesClient } from '../http/services-client';

/** The one story-correction rule (SPEC §6.4) has two doors; only the actor differs. */
function correction(projectId: string, storyId: string, actor: Actor, body: StoryCorrectionBody) {
  return {
    projectId,
    storyId,
    actor,
    changes: body.changes,
    ...(body.questionId ? { questionId: body.questionId } : {}),
  };
}

@UserApi('context')
@Controller('projects/:projectId/stories/:storyId/corrections')
export class StoryCorrectionsController {
  constructor(private readonly services: ServicesClient) {}

  @Post()
  @HttpCode(200)
  @MinRole('developer')
  @ApiOperation({ summary: 'Correct a story (draft, or ready citing an answered question)' })
  correct(
    @IdParam('projectId') projectId: string,
    @IdParam('storyId') storyId: string,
    @Body() body: StoryCorrectionBody,
    @CurrentUser() user: AuthenticatedUser,
    @CallHeaders() headers: RpcHeaders,
  ) {
    return this.services.ask(
      ContextCommand.correctStory,
      correction(projectId, storyId, { kind: 'user', id: user.id }, body),
      headers,
    );
  }
}

/** The `agent/po` door. */
@InternalApi('context')
@Controller('internal/projects/:projectId/stories/:storyId/corrections')
export class AgentStoryCorrectionsController {
  constructor(private readonly services: ServicesClient) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({ summary: 'Correct a story as agent/po' })
  correct(
    @IdParam('projectId') projectId: string,
    @IdParam('storyId') storyId: string,
    @Body() body: StoryCorrectionBody,
    @CallHeaders() headers: RpcHeaders,
  ) {
    return this.services.ask(
      ContextCommand.correctStory,
      correction(projectId, storyId, { kind: 'agent', id: 'po' }, body),
      headers,
    );
  }
}
