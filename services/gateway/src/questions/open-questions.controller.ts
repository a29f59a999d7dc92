import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { AnswerQuestionBody, ListOpenQuestionsQuery, QuestionsCommand } from '@openq/contracts';
import { CurrentUser } from '../auth/current-user.decorator';
import { MinRole } from '../auth/route-access';
import type { AuthenticatedUser } from '../auth/roles';
import { UserApi } from '../http/api-docs.decorators';
import { IdParam, UuidParam } from '../http/params';
import { CallHeaders, type RpcHeaders } from '../http/rpc-headers.decorator';
import { ServicesClient } from '../http/services-client';

/** The queue of open questions (SPEC §4): list, count, answer by click. */
@UserApi('open questions')
@Controller('projects/:projectId/open-questions')
export class OpenQuestionsController {
  constructor(private readonly services: ServicesClient) {}

  @Get()
  @MinRole('viewer')
  @ApiOperation({
    summary: 'Questions of the project, oldest first (status open|answered|all, limit 1..50, cursor)',
  })
  list(
    @IdParam('projectId') projectId: string,
    @Query() query: ListOpenQuestionsQuery,
    @CurrentUser() user: AuthenticatedUser,
    @CallHeaders() headers: RpcHeaders,
  ) {
    const { status, limit, cursor } = query;
    return this.services.ask(
      QuestionsCommand.list,
      { projectId, userId: user.id, status, limit, ...(cursor ? { cursor } : {}) },
      headers,
    );
  }

  @Get('count')
  @MinRole('viewer')
  @ApiOperation({ summary: 'How many questions are open' })
  count(@IdParam('projectId') projectId: string, @CallHeaders() headers: RpcHeaders) {
    return this.services.ask(QuestionsCommand.count, { projectId }, headers);
  }

  @Post(':questionId/answer')
  @HttpCode(200)
  @MinRole('viewer')
  @ApiOperation({
    summary: 'Answer a question: { resposta } or { aceitarSugestao: true } (only the session author)',
  })
  answer(
    @IdParam('projectId') projectId: string,
    @UuidParam('questionId') questionId: string,
    @Body() body: AnswerQuestionBody,
    @CurrentUser() user: AuthenticatedUser,
    @CallHeaders() headers: RpcHeaders,
  ) {
    return this.services.ask(
      QuestionsCommand.answer,
      { projectId, questionId, userId: user.id, ...body },
      headers,
    );
  }
}
