import { Controller, Get, Query, Res } from '@nestjs/common';
import { ApiOperation, ApiProduces } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import {
  analyticsCsv,
  analyticsPeriod,
  ANALYTICS_DEFAULT_DAYS,
  ANALYTICS_MAX_DAYS,
  AnalyticsQuery,
  ContextCommand,
  type AnalyticsReply,
} from '@openq/contracts';
import { MinRole } from '../auth/route-access';
import { UserApi } from '../http/api-docs.decorators';
import { httpError } from '../http/http-error';
import { IdParam } from '../http/params';
import { CallHeaders, type RpcHeaders } from '../http/rpc-headers.decorator';
import { ServicesClient } from '../http/services-client';

const ABOUT =
  `from and to are days YYYY-MM-DD (UTC, both included; default: the ${ANALYTICS_DEFAULT_DAYS} days up to today), ` +
  `by=role|week (default week; a week is keyed by its Monday). A malformed value is 400 parametro_invalido naming it; ` +
  `from after to, or more than ${ANALYTICS_MAX_DAYS} days, is 400 periodo_invalido`;

/** SPEC §12.4 question quality, read from the context service's read model of the logs. */
@UserApi('analytics')
@Controller('projects/:projectId')
export class AnalyticsController {
  constructor(private readonly services: ServicesClient) {}

  @Get('analytics')
  @MinRole('viewer')
  @ApiOperation({
    summary: `Question quality per asking role or per week: asked, joined, precedents, withdrawn, answered by click / by agent, suggestion accepted, amended, answer minutes p50/p90, parked minutes p50. ${ABOUT}`,
  })
  analytics(
    @IdParam('projectId') projectId: string,
    @Query() query: AnalyticsQuery,
    @CallHeaders() headers: RpcHeaders,
  ): Promise<AnalyticsReply> {
    return this.read(projectId, query, headers);
  }

  @Get('analytics.csv')
  @MinRole('viewer')
  @ApiProduces('text/csv')
  @ApiOperation({
    summary: `The same rows as CSV (a header of the field names; empty cell for null). ${ABOUT}`,
  })
  async csv(
    @IdParam('projectId') projectId: string,
    @Query() query: AnalyticsQuery,
    @CallHeaders() headers: RpcHeaders,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<string> {
    const { rows, from, to } = await this.read(projectId, query, headers);
    void reply.headers({
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="openq-${projectId}-${query.by}-${from}-${to}.csv"`,
    });
    return analyticsCsv(rows);
  }

  private read(projectId: string, query: AnalyticsQuery, headers: RpcHeaders): Promise<AnalyticsReply> {
    const period = analyticsPeriod(query, new Date());
    if (!period.ok) throw httpError(400, period.reason, period.message);
    return this.services.ask(
      ContextCommand.analytics,
      { projectId, from: period.from, to: period.to, by: query.by },
      headers,
    );
  }
}
