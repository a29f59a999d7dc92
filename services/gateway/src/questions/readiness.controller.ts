import { Controller, Get } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { QuestionsCommand, READINESS_ACTIONS, type ReadinessAction } from '@openq/contracts';
import { MinRole } from '../auth/route-access';
import { UserApi } from '../http/api-docs.decorators';
import { IdParam, OneOfParam } from '../http/params';
import { CallHeaders, type RpcHeaders } from '../http/rpc-headers.decorator';
import { RelaysJson, ServicesClient } from '../http/services-client';

/** "I'm ready" / "confirm architecture": warns about open questions, never blocks (SPEC §4). */
@UserApi('open questions')
@Controller('projects/:projectId/readiness')
export class ReadinessController {
  constructor(private readonly services: ServicesClient) {}

  @Get(':action')
  @RelaysJson()
  @MinRole('viewer')
  @ApiOperation({ summary: 'Open questions before im_ready / confirm_architecture_ready' })
  readiness(
    @IdParam('projectId') projectId: string,
    @OneOfParam('action', READINESS_ACTIONS) action: ReadinessAction,
    @CallHeaders() headers: RpcHeaders,
  ) {
    return this.services.relay(QuestionsCommand.readiness, { projectId, action }, headers);
  }
}
