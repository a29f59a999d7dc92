import { Inject, Injectable } from '@nestjs/common';
import type { NatsConnection } from 'nats';
import { Commands, type QuestionStatusItem } from '@openq/contracts';
import type { CitedQuestion } from '../../domain/gate-cycle';
import { RpcClient } from '@openq/messaging';
import { CORRELATION_HEADER, NATS } from '@openq/platform';

/** What the round's handler needs of the owner of the question log. */
export interface QuestionStatusSource {
  statusOf(
    projectId: string,
    questionIds: readonly string[],
    correlationId: string,
  ): Promise<QuestionStatusItem[]>;
}

/**
 * §11.2 the questions service, asked what its log has committed about questions this service
 * has not heard of yet. A failure throws (`RpcClient.call`): 503/504 a `RetryLaterError`, so the
 * verdict is retried while the outage lasts and never refused for it.
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
    correlationId: string,
  ): Promise<QuestionStatusItem[]> {
    if (questionIds.length === 0) return [];
    const reply = await this.rpc.call(
      Commands.questions.status,
      { projectId, questionIds: [...questionIds] },
      { headers: { [CORRELATION_HEADER]: correlationId } },
    );
    return reply.items;
  }
}

/**
 * The owner's answers asked before the verdict's transaction (no connection or lock held across
 * the call): what it said of the cited questions this service had not heard answered. In the
 * transaction, an answer heard meanwhile still wins (it is read under the lock); a question not
 * asked here (none, unless the round changed) is asked of `owner` then.
 */
export class AskedBefore implements QuestionStatusSource {
  private readonly byId: Map<string, QuestionStatusItem>;

  constructor(
    items: readonly QuestionStatusItem[],
    private readonly owner: QuestionStatusSource,
  ) {
    this.byId = new Map(items.map((item) => [item.questionId, item]));
  }

  async statusOf(
    projectId: string,
    questionIds: readonly string[],
    correlationId: string,
  ): Promise<QuestionStatusItem[]> {
    const known = questionIds.flatMap((id) => this.byId.get(id) ?? []);
    const missing = questionIds.filter((id) => !this.byId.has(id));
    return [...known, ...(await this.owner.statusOf(projectId, missing, correlationId))];
  }
}

/** What the owner's status of a cited question means for the round (§11.1, §11.5). */
export function citedQuestion(item: QuestionStatusItem): CitedQuestion {
  if (item.status === 'answered' && item.decisionEventId)
    return { status: 'answered', decisionEventId: item.decisionEventId };
  if (item.status === 'withdrawn') return { status: 'withdrawn' };
  return item.status === 'absent' ? { status: 'absent' } : { status: 'open' };
}
