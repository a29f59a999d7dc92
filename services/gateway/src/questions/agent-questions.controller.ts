import { Body, Controller, HttpCode, Post, Res } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { AgentAnswerBody, DeclareQuestionBody, QuestionsCommand, type Precedent } from '@openq/contracts';
import { InternalApi } from '../http/api-docs.decorators';
import { IdParam, UuidParam } from '../http/params';
import { CallHeaders, type RpcHeaders } from '../http/rpc-headers.decorator';
import { ServicesClient } from '../http/services-client';

/** The engine's door to the question log (service token): declare, and record a chat answer. */
@InternalApi('open questions')
@Controller('internal/projects/:projectId/open-questions')
export class AgentQuestionsController {
  constructor(private readonly services: ServicesClient) {}

  @Post()
  @ApiOperation({
    summary:
      'Declare an open question (201; the same toolCallId again → 200, same questionId; §12.3 the same ' +
      'question open → 200 { questionId, joined: true }; decided → 200 { precedent }, unless insistir)',
  })
  async declare(
    @IdParam('projectId') projectId: string,
    @Body() body: DeclareQuestionBody,
    @Res({ passthrough: true }) reply: FastifyReply,
    @CallHeaders() headers: RpcHeaders,
  ): Promise<{ questionId: string; joined?: true } | { precedent: Precedent }> {
    const declared = await this.services.ask(
      QuestionsCommand.declare,
      { projectId, declaration: { ...body, origin: 'tool' } },
      headers,
    );
    reply.status(declared.created ? 201 : 200);
    if (declared.precedent) return { precedent: declared.precedent };
    return declared.joined
      ? { questionId: declared.questionId, joined: true }
      : { questionId: declared.questionId };
  }

  @Post(':questionId/answer')
  @HttpCode(200)
  @ApiOperation({
    summary:
      "Record the user's unequivocal chat answer (ADR 0258): answered | already_answered (closedAs answered " +
      '| withdrawn, decisionEventId null for a withdrawn question), never 409',
  })
  answer(
    @IdParam('projectId') projectId: string,
    @UuidParam('questionId') questionId: string,
    @Body() body: AgentAnswerBody,
    @CallHeaders() headers: RpcHeaders,
  ) {
    return this.services.ask(QuestionsCommand.answerByAgent, { projectId, questionId, ...body }, headers);
  }
}
