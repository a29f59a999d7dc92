import { Inject, Injectable, Logger } from '@nestjs/common';
import type { NatsConnection } from 'nats';
import { Commands, type DeclareQuestionCommand, type DeclareQuestionReply } from '@openq/contracts';
import { RpcClient, replyFailure } from '@openq/messaging';
import { NATS } from '@openq/platform';
import type { AnalystQuestionRequest } from './domain/pipeline-task';
import { questionDeclareRefusals } from './pipeline.metrics';

/** Declares the analyst's questions in the question log, through `openq.questions.declare`. */
@Injectable()
export class AnalystQuestionsClient {
  private readonly logger = new Logger('pipeline:questions');
  private readonly rpc: RpcClient;

  constructor(@Inject(NATS) nc: NatsConnection) {
    this.rpc = new RpcClient(nc);
  }

  /**
   * Each declaration carries its stable key as `toolCallId`, so a retried message gets the same
   * question ids back. 5xx (and no answer) throws: the message is retried. A refusal (4xx) will
   * not change on retry: that question is skipped, logged and counted.
   */
  async declare(
    projectId: string,
    request: AnalystQuestionRequest,
    correlationId: string,
  ): Promise<string[]> {
    const ids: string[] = [];
    const { service, verb } = Commands.questions.declare;
    for (const item of request.declare) {
      const payload: DeclareQuestionCommand = {
        projectId,
        declaration: {
          sessionId: request.sessionId,
          sessionAuthorId: request.sessionAuthorId,
          autor: request.autor,
          origin: request.origin,
          pergunta: item.pergunta,
          sugestao: item.sugestao,
          afeta: request.afeta,
          toolCallId: item.key,
        },
      };
      const reply = await this.rpc.request<DeclareQuestionReply>(service, verb, payload, {
        headers: { 'x-correlation-id': correlationId },
      });
      if (reply.ok) {
        ids.push(reply.data.questionId);
        continue;
      }
      const { statusCode, reason, message } = reply.error;
      // Down or slow (503, 504): retried until it is back; another 5xx a few times.
      if (statusCode >= 500) throw replyFailure(`declaring analyst question ${item.key}`, reply.error);
      questionDeclareRefusals.inc({ reason });
      this.logger.warn(`analyst question ${item.key} refused (${statusCode} ${reason}): ${message}; skipped`);
    }
    return ids;
  }
}
