import { Body, Controller, Delete, Get, Inject, Put, Query } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import type { NatsConnection } from 'nats';
import { EngineEventsQuery, EngineSubscriptionBody, NotifierCommand } from '@openq/contracts';
import { InternalApi } from '../http/api-docs.decorators';
import { httpError, Reason } from '../http/http-error';
import { IdParam } from '../http/params';
import { CallHeaders, type RpcHeaders } from '../http/rpc-headers.decorator';
import { ServicesClient } from '../http/services-client';
import { NATS_CONNECTION } from '../messaging/nats.module';
import { readProjectEvents, type CaughtUp } from './engine-events';

/**
 * [openq] issue #34 (SPEC §12.5) an engine's subscription to openq's events: the notifier keeps it
 * and POSTs each matching event, signed, in order per subject, retried (services/notifier README).
 */
@InternalApi('engine subscriptions')
@Controller('internal/engines/:engineId/subscription')
export class EngineSubscriptionController {
  constructor(private readonly services: ServicesClient) {}

  @Put()
  @ApiOperation({
    summary:
      'Subscribe the engine (or replace its subscription): openq POSTs each event of these projects and ' +
      'types (the §8 envelope) to url, signed with secret (X-Openq-Signature), in order per subject',
  })
  put(
    @IdParam('engineId') engineId: string,
    @Body() body: EngineSubscriptionBody,
    @CallHeaders() headers: RpcHeaders,
  ) {
    return this.services.ask(NotifierCommand.setEngineSubscription, { engineId, ...body }, headers);
  }

  @Get()
  @ApiOperation({
    summary: "The engine's subscription (the secret never shown); 404 inscricao_nao_encontrada",
  })
  get(@IdParam('engineId') engineId: string, @CallHeaders() headers: RpcHeaders) {
    return this.services.ask(NotifierCommand.engineSubscription, { engineId }, headers);
  }

  @Delete()
  @ApiOperation({ summary: 'Stop sending events to the engine; 404 inscricao_nao_encontrada' })
  delete(@IdParam('engineId') engineId: string, @CallHeaders() headers: RpcHeaders) {
    return this.services.ask(NotifierCommand.deleteEngineSubscription, { engineId }, headers);
  }
}

/** [openq] issue #34 (SPEC §12.5) the catch-up: openq's events of a project from a stream sequence. */
@InternalApi('agent events')
@Controller('internal/projects/:projectId/events')
export class EngineEventsController {
  constructor(@Inject(NATS_CONNECTION) private readonly nc: NatsConnection) {}

  @Get()
  @ApiOperation({
    summary:
      "openq's events of the project after stream sequence `after`, oldest first (limit 1..500, default " +
      '100; types: comma-separated types or families like gate.*): { events: [{ seq, envelope }], next }',
  })
  async events(
    @IdParam('projectId') projectId: string,
    @Query() query: EngineEventsQuery,
  ): Promise<CaughtUp> {
    try {
      return await readProjectEvents(this.nc, projectId, query);
    } catch (error) {
      throw httpError(
        503,
        Reason.serviceUnavailable,
        `the event stream could not be read (${error instanceof Error ? error.message : String(error)}); try again`,
      );
    }
  }
}
