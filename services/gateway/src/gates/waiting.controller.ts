import { Controller, Get, Query } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { GateHistoryQuery, GatesCommand } from '@openq/contracts';
import { CurrentUser } from '../auth/current-user.decorator';
import type { AuthenticatedUser } from '../auth/roles';
import { MinRole } from '../auth/route-access';
import { UserApi } from '../http/api-docs.decorators';
import { answersForOf } from './answers-for';
import { IdParam } from '../http/params';
import { CallHeaders, type RpcHeaders } from '../http/rpc-headers.decorator';
import { RelaysJson, ServicesClient } from '../http/services-client';

/** The inbox's "waiting for you": cycles of the project parked on a user decision. */
@UserApi('gates')
@Controller('projects/:projectId/waiting')
export class WaitingController {
  constructor(private readonly services: ServicesClient) {}

  @Get()
  @RelaysJson()
  @MinRole('viewer')
  @ApiOperation({ summary: 'Gate cycles parked on the user (waiting for you)' })
  async waiting(
    @IdParam('projectId') projectId: string,
    @CurrentUser() user: AuthenticatedUser,
    @CallHeaders() headers: RpcHeaders,
  ) {
    // §12.1 `waitingForYou` is the caller's: whom they may answer for comes from the policy's owner.
    const answersFor = await answersForOf(this.services, projectId, user.id, headers);
    return this.services.relay(GatesCommand.waiting, { projectId, userId: user.id, answersFor }, headers);
  }
}

/** [openq] The project's gate history, newest first (the inbox's "Gate history"). */
@UserApi('gates')
@Controller('projects/:projectId/gate-history')
export class GateHistoryController {
  constructor(private readonly services: ServicesClient) {}

  @Get()
  @RelaysJson()
  @MinRole('viewer')
  @ApiOperation({
    summary: "The project's gate history, newest first: verdicts, parks, resumes (who and why)",
  })
  history(
    @IdParam('projectId') projectId: string,
    @Query() query: GateHistoryQuery,
    @CallHeaders() headers: RpcHeaders,
  ) {
    return this.services.relay(GatesCommand.history, { projectId, limit: query.limit }, headers);
  }
}
