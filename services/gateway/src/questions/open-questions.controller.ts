import { Body, Controller, Get, Headers, HttpCode, Post, Query } from '@nestjs/common';
import { ApiHeader, ApiOperation } from '@nestjs/swagger';
import {
  AcceptSuggestionsBody,
  type AcceptSuggestionsReply,
  AmendDecisionBody,
  AnswerQuestionBody,
  GatesCommand,
  isIdempotencyKey,
  ListOpenQuestionsQuery,
  QuestionsCommand,
  SplitQuestionBody,
  WithdrawQuestionBody,
  type BlockingQuestionsReply,
  type QuestionListReply,
} from '@openq/contracts';
import { CurrentUser } from '../auth/current-user.decorator';
import { MinRole } from '../auth/route-access';
import type { AuthenticatedUser } from '../auth/roles';
import { UserApi } from '../http/api-docs.decorators';
import { httpError, Reason } from '../http/http-error';
import { IdParam, UuidParam } from '../http/params';
import { CallHeaders, type RpcHeaders } from '../http/rpc-headers.decorator';
import { RelaysJson, ServicesClient } from '../http/services-client';
import { acceptSuggestions } from './accept-suggestions';
import { filtersOf, withBlocking } from './blocking-order';

/** The queue of open questions (SPEC §4): list, count, answer by click; withdraw and amend by click (§11.5). */
@UserApi('open questions')
@Controller('projects/:projectId/open-questions')
export class OpenQuestionsController {
  constructor(private readonly services: ServicesClient) {}

  /**
   * [openq] issue #18: open questions carry `blocking` (what waits on them, from the gates
   * service) and, with `sort=blocking` (asked for explicitly, §12.1: the default is §4's oldest
   * first), the blocking ones come first. The gates
   * service computes the blocking set from its projections; the questions service ranks by the
   * ids it is handed; the gateway only passes one to the other. Without an answer from the gates
   * service the list is oldest first, `blocking: null`, and `sort` says `oldest`. The reply is
   * read and extended here (`blocking`, `sort`), so this route asks rather than relays bytes.
   */
  @Get()
  @MinRole('viewer')
  @ApiOperation({
    summary:
      'Questions of the project (status open|answered|withdrawn|all, limit 1..50, cursor, sort blocking|oldest): ' +
      'oldest first by default (§4), each open one with what waits on it (blocking); sort=blocking for what blocks ' +
      'most first. Filters (issue #18): who=all|mine|others (others: the ones you cannot answer), session=<sessionId> ' +
      '(§12.1: the session where it was born), role=<autor> (repeatable or a ' +
      'comma list), task=, story=, rule= (afeta), q= full text over pergunta and sugestao (Portuguese and English, ' +
      'accents ignored, web-search syntax, the last word as a prefix). total counts the filtered set; with a filter, ' +
      'counts: { mine, others } too. A bad value is 400 parametro_invalido naming the parameter',
  })
  async list(
    @IdParam('projectId') projectId: string,
    @Query() query: ListOpenQuestionsQuery,
    @CurrentUser() user: AuthenticatedUser,
    @CallHeaders() headers: RpcHeaders,
  ): Promise<QuestionListReply> {
    const { status, limit, cursor, sort } = query;
    const base = {
      projectId,
      userId: user.id,
      status,
      limit,
      ...(cursor ? { cursor } : {}),
      ...filtersOf(query),
    };
    if (status !== 'open' && status !== 'all') {
      return { ...(await this.services.ask(QuestionsCommand.list, base, headers)), sort: 'oldest' };
    }
    const blocking = await this.services
      .ask(GatesCommand.blocking, { projectId }, headers)
      .catch((): BlockingQuestionsReply | null => null);
    const ranked = sort === 'blocking' && status === 'open' && blocking !== null && blocking.items.length > 0;
    const reply = await this.services.ask(
      QuestionsCommand.list,
      ranked ? { ...base, first: blocking.items.map((b) => b.questionId) } : base,
      headers,
    );
    return withBlocking(reply, blocking, sort === 'blocking' && status === 'open');
  }

  @Get('count')
  @RelaysJson()
  @MinRole('viewer')
  @ApiOperation({ summary: 'How many questions are open' })
  count(@IdParam('projectId') projectId: string, @CallHeaders() headers: RpcHeaders) {
    return this.services.relay(QuestionsCommand.count, { projectId }, headers);
  }

  @Post(':questionId/answer')
  @HttpCode(200)
  @MinRole('viewer')
  @ApiOperation({
    summary: 'Answer a question: { resposta } or { aceitarSugestao: true } (only the session author)',
  })
  @ApiHeader({
    name: 'Idempotency-Key',
    required: false,
    description:
      '[openq] 1–128 visible ASCII characters (a UUID). The same request sent again with the same key ' +
      '(a retry after a lost reply) gets the first answer back with 200 instead of 409; the key with ' +
      'another request is refused with 422 idempotency_key_reutilizada. Kept 24 hours.',
  })
  answer(
    @IdParam('projectId') projectId: string,
    @UuidParam('questionId') questionId: string,
    @Body() body: AnswerQuestionBody,
    @CurrentUser() user: AuthenticatedUser,
    @CallHeaders() headers: RpcHeaders,
    @Headers('idempotency-key') idempotencyKey?: string,
  ) {
    if (idempotencyKey !== undefined && !isIdempotencyKey(idempotencyKey)) {
      throw httpError(400, Reason.badParameter, 'Idempotency-Key must be 1 to 128 visible ASCII characters');
    }
    return this.services.ask(
      QuestionsCommand.answer,
      { projectId, questionId, userId: user.id, ...body, ...(idempotencyKey ? { idempotencyKey } : {}) },
      headers,
    );
  }

  @Post('accept-suggestions')
  @HttpCode(200)
  @MinRole('viewer')
  @ApiOperation({
    summary:
      '[openq] issue #18 accept the suggestion of several questions at once: { questionIds } (1–50 distinct UUIDs; ' +
      '400 corpo_invalido). Each goes through the same answer as a click on "Accept suggestion" (only the session ' +
      'author; sem_sugestao; pergunta_retirada; …). 200 { results: [{ questionId, status: answered | already_answered ' +
      '| refused, reason?, message?, decisionEventId? }] } in the order asked: a partial success is a 200 that says so.',
  })
  @ApiHeader({
    name: 'Idempotency-Key',
    required: false,
    description:
      '[openq] 1–128 visible ASCII characters. Each question gets its own key derived from this one and its id, ' +
      'so the same batch sent again answers nothing twice: an item already recorded by the first try comes back ' +
      '`answered` with the same decisionEventId. Without a key, a retry sees those items as already_answered.',
  })
  accept(
    @IdParam('projectId') projectId: string,
    @Body() body: AcceptSuggestionsBody,
    @CurrentUser() user: AuthenticatedUser,
    @CallHeaders() headers: RpcHeaders,
    @Headers('idempotency-key') idempotencyKey?: string,
  ): Promise<AcceptSuggestionsReply> {
    if (idempotencyKey !== undefined && !isIdempotencyKey(idempotencyKey)) {
      throw httpError(400, Reason.badParameter, 'Idempotency-Key must be 1 to 128 visible ASCII characters');
    }
    return acceptSuggestions(
      this.services,
      {
        projectId,
        userId: user.id,
        questionIds: body.questionIds,
        ...(idempotencyKey ? { idempotencyKey } : {}),
      },
      headers,
    );
  }

  @Post(':questionId/withdraw')
  @HttpCode(200)
  @MinRole('viewer')
  @ApiOperation({
    summary:
      'Withdraw a question that no longer needs an answer: { motivo } (1–500 characters; only the session author). ' +
      '200 { withdrawn: true, questionId, status, by, motivo, withdrawnAt, alreadyWithdrawn }; withdrawing again is 200 ' +
      'with the first withdrawal; 409 pergunta_ja_respondida; 403 so_o_autor_da_sessao; 404',
  })
  withdraw(
    @IdParam('projectId') projectId: string,
    @UuidParam('questionId') questionId: string,
    @Body() body: WithdrawQuestionBody,
    @CurrentUser() user: AuthenticatedUser,
    @CallHeaders() headers: RpcHeaders,
  ) {
    return this.services.ask(
      QuestionsCommand.withdraw,
      { projectId, questionId, userId: user.id, motivo: body.motivo },
      headers,
    );
  }

  @Post(':questionId/split')
  @HttpCode(201)
  @MinRole('viewer')
  @ApiOperation({
    summary:
      'Split a wrong join (§12.3): { toolCallId } of the asker that joined; only the session author. ' +
      '201 { questionId } (a new open question for that asker); 409 nao_ha_o_que_separar; 403 so_o_autor_da_sessao; 404',
  })
  split(
    @IdParam('projectId') projectId: string,
    @UuidParam('questionId') questionId: string,
    @Body() body: SplitQuestionBody,
    @CurrentUser() user: AuthenticatedUser,
    @CallHeaders() headers: RpcHeaders,
  ) {
    return this.services.ask(
      QuestionsCommand.split,
      { projectId, questionId, userId: user.id, toolCallId: body.toolCallId },
      headers,
    );
  }

  @Post(':questionId/amend')
  @HttpCode(200)
  @MinRole('viewer')
  @ApiOperation({
    summary:
      "Amend an agent's answer: { resposta } supersedes the decision an agent recorded (only the session author). " +
      '200 { questionId, decisionEventId, supersededDecisionEventId, resposta, alreadyAmended }; the same resposta ' +
      'again is 200 with the first amendment; 409 decisao_nao_e_de_agente; 403 so_o_autor_da_sessao; 404',
  })
  amend(
    @IdParam('projectId') projectId: string,
    @UuidParam('questionId') questionId: string,
    @Body() body: AmendDecisionBody,
    @CurrentUser() user: AuthenticatedUser,
    @CallHeaders() headers: RpcHeaders,
  ) {
    return this.services.ask(
      QuestionsCommand.amend,
      { projectId, questionId, userId: user.id, resposta: body.resposta },
      headers,
    );
  }
}
