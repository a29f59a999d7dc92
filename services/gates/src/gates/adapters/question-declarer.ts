import { Inject, Injectable } from '@nestjs/common';
import type { NatsConnection } from 'nats';
import {
  Commands,
  isRefusalReason,
  refusal,
  validateAs,
  type DeclareQuestionCommand,
  type DeclareQuestionReply,
  type Refusal,
  type ErrorBody,
  affectsToWire,
} from '@openq/contracts';
import { CORRELATION_HEADER, RpcClient, replyFailure } from '@openq/messaging';
import { NATS } from '@openq/platform';

const declare = Commands.questions.declare;

/** The questions one gates path opens together: the fields they share, and each one's own. */
export interface QuestionBatch {
  sessionId: string;
  sessionAuthorId: string;
  /** Who asks (`autor` on the wire). */
  role: DeclareQuestionCommand['declaration']['autor'];
  origin: DeclareQuestionCommand['declaration']['origin'];
  /** What the questions affect (`afeta` on the wire). */
  affects: { rules: string[]; stories: string[]; tasks: string[] };
  /** Each question's `toolCallId` is its idempotency key: a retry gets the same question back. */
  questions: readonly { toolCallId: string; question: string; suggestion: string | null }[];
}

/**
 * What the paths differ in: a QA round is all or nothing (every declaration checked before the
 * first call, the first refusal returned); the analyst's questions go one by one, a refused one
 * skipped (and reported to `skipped`).
 */
export type OnRefused =
  { onRefused: 'stop' } | { onRefused: 'skip'; skipped(toolCallId: string, error: ErrorBody): void };

/**
 * The one client gates declares questions through (`openq.questions.declare`), for QA verdicts
 * and the analyst alike. The ids of the questions opened come back in order. A 5xx (or no
 * answer) throws a retryable failure, so the message is retried while the service is down.
 */
@Injectable()
export class QuestionDeclarer {
  private readonly rpc: RpcClient;

  constructor(@Inject(NATS) nc: NatsConnection) {
    this.rpc = new RpcClient(nc);
  }

  declare(
    projectId: string,
    batch: QuestionBatch,
    opts: { correlationId: string } & { onRefused: 'stop' },
  ): Promise<string[] | Refusal>;
  declare(
    projectId: string,
    batch: QuestionBatch,
    opts: { correlationId: string } & Extract<OnRefused, { onRefused: 'skip' }>,
  ): Promise<string[]>;
  async declare(
    projectId: string,
    batch: QuestionBatch,
    opts: { correlationId: string } & OnRefused,
  ): Promise<string[] | Refusal> {
    const afeta = affectsToWire(batch.affects);
    const commands: DeclareQuestionCommand[] = batch.questions.map((q) => ({
      projectId,
      declaration: {
        sessionId: batch.sessionId,
        sessionAuthorId: batch.sessionAuthorId,
        autor: batch.role,
        origin: batch.origin,
        pergunta: q.question,
        sugestao: q.suggestion,
        afeta,
        toolCallId: q.toolCallId,
      },
    }));
    if (opts.onRefused === 'stop') {
      // Every declaration is checked before the first call: a refused batch leaves no question behind.
      for (const command of commands) {
        const checked = validateAs(declare.dto, command, 'pergunta_invalida');
        if (!checked.ok) return refusal(400, checked.reason, checked.message);
      }
    }
    const questionIds: string[] = [];
    for (const [i, command] of commands.entries()) {
      const toolCallId = batch.questions[i]!.toolCallId;
      const reply = await this.rpc.request<DeclareQuestionReply>(declare.service, declare.verb, command, {
        headers: { [CORRELATION_HEADER]: opts.correlationId },
      });
      if (reply.ok) {
        questionIds.push(reply.data.questionId);
        continue;
      }
      const { statusCode, message } = reply.error;
      // Down or slow (503, 504): retried until it is back; another 5xx a few times.
      if (statusCode >= 500) throw replyFailure(`${declare.type} ${toolCallId}`, reply.error);
      if (opts.onRefused === 'stop')
        return refusal(
          statusCode,
          // The questions service's reasons are the catalog's; one from another build reads as a bad question.
          isRefusalReason(reply.error.reason) ? reply.error.reason : 'pergunta_invalida',
          `${declare.type} refused the question: ${message}`,
        );
      opts.skipped(toolCallId, reply.error);
    }
    return questionIds;
  }
}
