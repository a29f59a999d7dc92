import type { EventContext } from '@openq/messaging';
import { enqueueNotifications } from './enqueue';
import { factFromWire, saveDeclaredQuestion, type WireFact } from './from-wire';
import type { KnownQuestion } from '../../domain/recipients';
import type { NotifierRuntime } from '../../notifier-runtime';
import { closeAnsweredQuestion } from '../../store/clock.store';

/**
 * A fact the notifier hears (issue #17), in the message's inbox transaction: a declaration is
 * kept first (what later notifications need of it), an answer closes its question's clock; then
 * the people concerned get one delivery row per channel — rows of that transaction, so a
 * redelivered event plans nothing twice. The fact arrives in the wire's words and is planned in
 * the domain's (`factFromWire`). A batch's answers close their questions in one statement
 * (`closeAnsweredQuestion`).
 */
export async function enqueueNotificationsHandler(
  runtime: NotifierRuntime,
  wire: WireFact,
  event: Pick<EventContext, 'manager' | 'envelope' | 'batch'>,
): Promise<void> {
  let known: ReadonlyMap<string, KnownQuestion> | undefined;
  if (wire.type === 'question.declared') {
    await saveDeclaredQuestion(event.manager, event.envelope.projectId, wire.data);
  } else if (wire.type === 'question.answered') {
    const question = await closeAnsweredQuestion(
      event.manager,
      event.batch,
      wire.data.questionId,
      wire.data.answeredAt,
    );
    known = new Map([[question.questionId, question]]);
  }
  const planned = await enqueueNotifications(
    event.manager,
    event.envelope,
    factFromWire(wire),
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
