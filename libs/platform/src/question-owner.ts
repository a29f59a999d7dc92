import { Inject, Injectable } from '@nestjs/common';
import type { NatsConnection } from 'nats';
import { Commands, type QuestionStatusItem } from '@openq/contracts';
import { CORRELATION_HEADER, RpcClient } from '@openq/messaging';
import { NATS } from './domain-service';

/** What a service needs of the owner of the question log: what it has committed about questions. */
export interface QuestionStatusSource {
  /**
   * The owner's status of each of `questionIds` (`absent` when it is not in the project);
   * `correlationId`, when given, travels as the request's `x-correlation-id`.
   */
  statusOf(
    projectId: string,
    questionIds: readonly string[],
    correlationId?: string,
  ): Promise<QuestionStatusItem[]>;
}

/**
 * §11.2 the questions service (the owner of the question log), asked `openq.questions.status`
 * about questions the asking service has not heard of, or heard answered, yet: the gates before a
 * verdict parks on cited questions, the context before it refuses a story correction. A failure
 * throws (`RpcClient.call`): 503/504 a `RetryLaterError` (an event is retried while the outage
 * lasts, a request answers 503), never a wrong answer.
 */
@Injectable()
export class QuestionOwner implements QuestionStatusSource {
  private readonly rpc: RpcClient;

  constructor(@Inject(NATS) nc: NatsConnection) {
    this.rpc = new RpcClient(nc);
  }

  async statusOf(
    projectId: string,
    questionIds: readonly string[],
    correlationId?: string,
  ): Promise<QuestionStatusItem[]> {
    if (questionIds.length === 0) return [];
    const reply = await this.rpc.call(
      Commands.questions.status,
      { projectId, questionIds: [...questionIds] },
      correlationId ? { headers: { [CORRELATION_HEADER]: correlationId } } : {},
    );
    return reply.items;
  }
}
