import { Body, Controller, Get, Put } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { ChangePoliciesBody, QuestionsCommand, type ProjectPolicies } from '@openq/contracts';
import { CurrentUser } from '../auth/current-user.decorator';
import { MinRole } from '../auth/route-access';
import type { AuthenticatedUser } from '../auth/roles';
import { UserApi } from '../http/api-docs.decorators';
import { IdParam } from '../http/params';
import { CallHeaders, type RpcHeaders } from '../http/rpc-headers.decorator';
import { ServicesClient } from '../http/services-client';

/**
 * §12.1 the project's policies: the two conveniences that relax the seeds' rules (a delegate's
 * click, a maintainer's override), both off until a maintainer turns them on, saying why.
 */
@UserApi('policies')
@Controller('projects/:projectId/policies')
export class PoliciesController {
  constructor(private readonly services: ServicesClient) {}

  @Get()
  @MinRole('viewer')
  @ApiOperation({
    summary: 'The project policies: { delegacao, overrideDeMantenedor } (both off by default)',
  })
  async get(
    @IdParam('projectId') projectId: string,
    @CallHeaders() headers: RpcHeaders,
  ): Promise<ProjectPolicies> {
    const { delegacao, overrideDeMantenedor } = await this.services.ask(
      QuestionsCommand.policiesGet,
      { projectId },
      headers,
    );
    return { delegacao, overrideDeMantenedor };
  }

  @Put()
  @MinRole('maintainer')
  @ApiOperation({
    summary:
      'Turn delegation and/or the maintainer override on or off (maintainer), with a motivo (1–500 chars): ' +
      '200 with the policies now in force; log event project.policy_changed; 400 motivo_invalido / corpo_invalido',
  })
  change(
    @IdParam('projectId') projectId: string,
    @Body() body: ChangePoliciesBody,
    @CurrentUser() user: AuthenticatedUser,
    @CallHeaders() headers: RpcHeaders,
  ) {
    return this.services.ask(
      QuestionsCommand.policiesChange,
      {
        projectId,
        userId: user.id,
        motivo: body.motivo,
        ...(body.delegacao !== undefined ? { delegacao: body.delegacao } : {}),
        ...(body.overrideDeMantenedor !== undefined
          ? { overrideDeMantenedor: body.overrideDeMantenedor }
          : {}),
      },
      headers,
    );
  }
}
