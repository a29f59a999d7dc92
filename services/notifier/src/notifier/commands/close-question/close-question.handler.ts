import type { QuestionWithdrawn } from '@openq/contracts';
import type { EventContext } from '@openq/messaging';
import { closeQuestion } from '../../store/clock.store';

/** A withdrawal closes the question's clock; nobody is told (the withdrawer knows, the gate's resume tells). */
export async function closeWithdrawnQuestion(
  event: Pick<EventContext, 'manager'>,
  data: QuestionWithdrawn,
): Promise<void> {
  await closeQuestion(event.manager, data.questionId, 'withdrawn', data.withdrawnAt);
}
