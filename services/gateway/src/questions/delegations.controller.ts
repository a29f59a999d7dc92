import { Body, Controller, Get, HttpCode, Post } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { GrantDelegationBody, QuestionsCommand } from '@openq/contracts';
import { CurrentUser } from '../auth/current-user.decorator';
import { MinRole } from '../auth/route-access';
import type { AuthenticatedUser } from '../auth/roles';
import { UserApi } from '../http/api-docs.decorators';
import { IdParam, UuidParam } from '../http/params';
import { CallHeaders, type RpcHeaders } from '../http/rpc-headers.decorator';
import { ServicesClient } from '../http/services-client';

/**
 * §11.6 delegation, explicit and recorded: the caller lets a named person answer, by click, the
 * questions of the sessions the caller led in this project, until a date. The grantor needs a
 * role on the project (viewer at least, like answering); the delegate's role is checked when they
 * act (their answer goes through the answer route, viewer at least), not at the grant.
 */
@UserApi('delegations')
@Controller('projects/:projectId/delegations')
export class DelegationsController {
  constructor(private readonly services: ServicesClient) {}

  @Post()
  @MinRole('viewer')
  @ApiOperation({
    summary:
      'Let { to } answer my questions in this project until { until } (ISO-8601, ahead, at most 90 days away). ' +
      '201 { grantId, from, to, until, grantedAt }; 400 delegacao_invalida (field to or until)',
  })
  grant(
    @IdParam('projectId') projectId: string,
    @Body() body: GrantDelegationBody,
    @CurrentUser() user: AuthenticatedUser,
    @CallHeaders() headers: RpcHeaders,
  ) {
    return this.services.ask(
      QuestionsCommand.delegationGrant,
      { projectId, userId: user.id, to: body.to, until: body.until },
      headers,
    );
  }

  @Get()
  @MinRole('viewer')
  @ApiOperation({
    summary:
      'My delegations in this project: { given, received }, newest first, each with status active|expired|revoked',
  })
  list(
    @IdParam('projectId') projectId: string,
    @CurrentUser() user: AuthenticatedUser,
    @CallHeaders() headers: RpcHeaders,
  ) {
    return this.services.ask(QuestionsCommand.delegationList, { projectId, userId: user.id }, headers);
  }

  @Post(':grantId/revoke')
  @HttpCode(200)
  @MinRole('viewer')
  @ApiOperation({
    summary:
      'Revoke a delegation I granted: 200 with the grant (status revoked); 404 delegacao_nao_encontrada; ' +
      '403 so_quem_delegou; 409 delegacao_ja_revogada',
  })
  revoke(
    @IdParam('projectId') projectId: string,
    @UuidParam('grantId') grantId: string,
    @CurrentUser() user: AuthenticatedUser,
    @CallHeaders() headers: RpcHeaders,
  ) {
    return this.services.ask(
      QuestionsCommand.delegationRevoke,
      { projectId, grantId, userId: user.id },
      headers,
    );
  }
}
