import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { NatsConnection } from 'nats';
import {
  Commands,
  refusal,
  TOOL_CALL_ID_MAX_LENGTH,
  validateAs,
  type DeclareQuestionCommand,
  type DeclareQuestionReply,
  type Refusal,
} from '@openq/contracts';
import { RpcClient, replyFailure } from '@openq/messaging';
import { CORRELATION_HEADER, NATS } from '@openq/platform';
import type { GateName, QuestionRequest } from '../../domain/gate-cycle';

export interface VerdictOrigin {
  taskId: string;
  gate: GateName;
  /** QA's session, where the question is born. */
  sessionId: string;
  correlationId: string;
}

/**
 * The idempotency key of a QA question: one per (task, gate, round, subspecialty), so a retried
 * verdict gets back the question it declared before. Hashed when it would exceed the limit.
 */
export function qaToolCallId(taskId: string, gate: GateName, key: string): string {
  const id = `qa:${taskId}:${gate}:${key}`;
  if (id.length <= TOOL_CALL_ID_MAX_LENGTH) return id;
  return `qa:sha256:${createHash('sha256').update(id).digest('hex')}`;
}

const { declare } = Commands.questions;

/** Records the questions of a `needs_user_decision` round in the question log (questions service). */
@Injectable()
export class QaQuestionDeclarer {
  private readonly rpc: RpcClient;

  constructor(@Inject(NATS) nc: NatsConnection) {
    this.rpc = new RpcClient(nc);
  }

  /**
   * The ids of the round's new questions, in order. Throws `RetryLaterError` when the
   * questions service fails (the message is retried); returns the refusal when it refuses one.
   */
  async declare(
    projectId: string,
    origin: VerdictOrigin,
    request: QuestionRequest,
  ): Promise<string[] | Refusal> {
    const commands: DeclareQuestionCommand[] = request.declare.map((q) => ({
      projectId,
      declaration: {
        sessionId: origin.sessionId,
        sessionAuthorId: request.sessionAuthorId,
        autor: request.autor,
        origin: request.origin,
        pergunta: q.pergunta,
        sugestao: q.sugestao,
        afeta: request.afeta,
        toolCallId: qaToolCallId(origin.taskId, origin.gate, q.key),
      },
    }));
    // Check every declaration before the first call, so that a refused round leaves no question behind.
    for (const command of commands) {
      const checked = validateAs(declare.dto, command, 'pergunta_invalida');
      if (!checked.ok) return refusal(400, checked.reason, checked.message);
    }
    const questionIds: string[] = [];
    for (const command of commands) {
      const reply = await this.rpc.request<DeclareQuestionReply>(declare.service, declare.verb, command, {
        headers: { [CORRELATION_HEADER]: origin.correlationId },
      });
      if (reply.ok) {
        questionIds.push(reply.data.questionId);
        continue;
      }
      const { statusCode, reason, message } = reply.error;
      // The questions service failed: the verdict is retried, for as long as an outage (503,
      // 504) lasts, a few times for any other 5xx.
      if (statusCode >= 500) throw replyFailure(declare.type, reply.error);
      return refusal(statusCode, reason, `${declare.type} refused the question: ${message}`);
    }
    return questionIds;
  }
}
