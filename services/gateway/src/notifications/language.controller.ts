import { Body, Controller, Get, Put } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { LanguageBody, NotifierCommand } from '@openq/contracts';
import { CurrentIdentity, CurrentUser } from '../auth/current-user.decorator';
import { AcrossProjects, MinRole } from '../auth/route-access';
import type { AuthenticatedUser, UserIdentity } from '../auth/roles';
import { UserApi } from '../http/api-docs.decorators';
import { IdParam } from '../http/params';
import { CallHeaders, type RpcHeaders } from '../http/rpc-headers.decorator';
import { RelaysJson, ServicesClient } from '../http/services-client';

/**
 * [openq] issue #30 the language openq writes to a person in (e-mails, Slack messages, digests,
 * one-tap pages): theirs, on every project; else the project's (maintainers set it); else English.
 */
@UserApi('notifications')
@Controller()
export class LanguageController {
  constructor(private readonly services: ServicesClient) {}

  @Get('me/language')
  @RelaysJson()
  @MinRole('viewer')
  @AcrossProjects()
  @ApiOperation({ summary: 'Your language for what openq sends you ({ language: null } when you set none)' })
  mine(@CurrentIdentity() identity: UserIdentity, @CallHeaders() headers: RpcHeaders) {
    return this.services.relay(NotifierCommand.language, { userId: identity.id }, headers);
  }

  @Put('me/language')
  @MinRole('viewer')
  @AcrossProjects()
  @ApiOperation({
    summary:
      'Set your language ({ language: "en" | "pt-BR" }; null forgets it: the project’s applies, else English)',
  })
  setMine(
    @Body() body: LanguageBody,
    @CurrentIdentity() identity: UserIdentity,
    @CallHeaders() headers: RpcHeaders,
  ) {
    return this.services.ask(
      NotifierCommand.setLanguage,
      { userId: identity.id, language: body.language },
      headers,
    );
  }

  @Get('projects/:projectId/language')
  @RelaysJson()
  @MinRole('viewer')
  @ApiOperation({
    summary: "The project's language (null when none) and `effective`: what openq writes to you on it",
  })
  project(
    @IdParam('projectId') projectId: string,
    @CurrentUser() user: AuthenticatedUser,
    @CallHeaders() headers: RpcHeaders,
  ) {
    return this.services.relay(
      NotifierCommand.projectLanguage,
      { projectId, userId: user.id, role: user.role },
      headers,
    );
  }

  @Put('projects/:projectId/language')
  @MinRole('maintainer')
  @ApiOperation({
    summary:
      'Set the project\'s language, for those who set none ({ language: "en" | "pt-BR" }; null forgets it)',
  })
  setProject(
    @IdParam('projectId') projectId: string,
    @Body() body: LanguageBody,
    @CurrentUser() user: AuthenticatedUser,
    @CallHeaders() headers: RpcHeaders,
  ) {
    return this.services.ask(
      NotifierCommand.setProjectLanguage,
      { projectId, userId: user.id, role: user.role, language: body.language },
      headers,
    );
  }
}
