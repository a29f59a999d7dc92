import type { EventContext } from '@openq/messaging';
import { enqueueNotifications } from './enqueue';
import type { KnownQuestion, NotifierFact } from '../../domain/recipients';
import type { NotifierRuntime } from '../../notifier-runtime';
import { closeQuestion } from '../../store/clock.store';
import { saveQuestion } from '../../store/questions.store';

/**
 * A fact the notifier hears (issue #17), in the message's inbox transaction: a declaration is
 * kept first (what later notifications need of it), an answer closes its question's clock; then
 * the people concerned get one delivery row per channel — rows of that transaction, so a
 * redelivered event plans nothing twice.
 */
export async function enqueueNotificationsHandler(
  runtime: NotifierRuntime,
  fact: NotifierFact,
  event: Pick<EventContext, 'manager' | 'envelope'>,
): Promise<void> {
  let known: ReadonlyMap<string, KnownQuestion> | undefined;
  if (fact.type === 'question.declared') {
    await saveQuestion(event.manager, event.envelope.projectId, fact.data);
  } else if (fact.type === 'question.answered') {
    const question = await closeQuestion(
      event.manager,
      fact.data.questionId,
      'answered',
      fact.data.answeredAt,
    );
    known = new Map([[question.questionId, question]]);
  }
  const planned = await enqueueNotifications(
    event.manager,
    event.envelope,
    fact,
    {
      publicUrl: runtime.settings.publicUrl,
      maxEventAgeS: runtime.settings.maxEventAgeS,
      kinds: runtime.kinds,
      now: new Date(),
    },
    known,
  );
  // The rows commit with the message; the sender looks again shortly after.
  if (planned > 0) setTimeout(() => runtime.sender?.kick(), 20).unref();
}
