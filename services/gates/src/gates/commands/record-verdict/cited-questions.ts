import type { QuestionStatusItem } from '@openq/contracts';
import type { QuestionStatusSource } from '@openq/platform';
import type { CitedQuestion } from '../../domain/gate-cycle';

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
    correlationId?: string,
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
