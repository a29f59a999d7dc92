import { Inject, Injectable } from '@nestjs/common';
import type { NatsConnection } from 'nats';
import { Commands } from '@openq/contracts';
import { RpcClient } from '@openq/messaging';
import { NATS } from '@openq/platform';
import type { CitedQuestion } from './domain';

/** What a refusal on the strength of the question read model is checked against. */
export interface QuestionStatusSource {
  /** The question as its owner's log has committed it; null when it is not in the project. */
  citedQuestion(projectId: string, questionId: string): Promise<CitedQuestion | null>;
}

/**
 * §11.2 the questions service (the owner of the question log), asked before this service refuses
 * because its read model does not show a question, or its answer, yet. A failure throws
 * (`RpcClient.call`): 503/504 a `RetryLaterError`, so the caller gets 503 ("try again"), never a
 * wrong refusal.
 */
@Injectable()
export class QuestionOwner implements QuestionStatusSource {
  private readonly rpc: RpcClient;

  constructor(@Inject(NATS) nc: NatsConnection) {
    this.rpc = new RpcClient(nc);
  }

  async citedQuestion(projectId: string, questionId: string): Promise<CitedQuestion | null> {
    const { items } = await this.rpc.call(Commands.questions.status, {
      projectId,
      questionIds: [questionId],
    });
    const item = items.find((i) => i.questionId === questionId);
    if (!item || item.status === 'absent') return null;
    return { questionId, answered: item.status === 'answered' };
  }
}
