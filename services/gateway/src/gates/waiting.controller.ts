import { Controller, Get } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { GatesCommand } from '@openq/contracts';
import { MinRole } from '../auth/route-access';
import { UserApi } from '../http/api-docs.decorators';
import { IdParam } from '../http/params';
import { CallHeaders, type RpcHeaders } from '../http/rpc-headers.decorator';
import { ServicesClient } from '../http/services-client';

/** The inbox's "waiting for you": cycles of the project parked on a user decision. */
@UserApi('gates')
@Controller('projects/:projectId/waiting')
export class WaitingController {
  constructor(private readonly services: ServicesClient) {}

  @Get()
  @MinRole('viewer')
  @ApiOperation({ summary: 'Gate cycles parked on the user (waiting for you)' })
  waiting(@IdParam('projectId') projectId: string, @CallHeaders() headers: RpcHeaders) {
    return this.services.ask(GatesCommand.waiting, { projectId }, headers);
  }
}
