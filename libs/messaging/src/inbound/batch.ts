import type { JsMsg } from 'nats';
import type { EventEnvelope } from '@openq/contracts';
import { natsHeaderReader, runInScope } from '../trace-context';
import { consumerSpan, type InboundOptions } from './options';

/*
 * Gathering a batch of inbound messages: their order (by subject, then stream sequence), their
 * subjects, and their before-transaction steps. Nothing here touches the database itself.
 */

/** One message of a batch, parsed. */
export interface BatchItem {
  msg: JsMsg;
  envelope: EventEnvelope;
  /** What the type's before-transaction step returned for this message. */
  prepared?: unknown;
}

/** Before-transaction steps of one batch run at once (each is typically a call to another service). */
export const PREPARE_CONCURRENCY = 16;

/** By subject, then stream sequence: the order positions are locked and messages applied in. */
export function inSubjectOrder(a: Pick<JsMsg, 'subject' | 'seq'>, b: Pick<JsMsg, 'subject' | 'seq'>): number {
  return a.subject < b.subject ? -1 : a.subject > b.subject ? 1 : a.seq - b.seq;
}

/** Items already in subject order, grouped by subject. */
export function groupBySubject(items: BatchItem[]): Map<string, BatchItem[]> {
  const subjects = new Map<string, BatchItem[]>();
  for (const item of items) {
    const of = subjects.get(item.msg.subject);
    if (of) of.push(item);
    else subjects.set(item.msg.subject, [item]);
  }
  return subjects;
}

/**
 * The batch's before-transaction steps (`InboundOptions.prepare`), up to `PREPARE_CONCURRENCY` at
 * once, each in its message's scope (correlation id, trace), its result set as the item's
 * `prepared`; nothing is held meanwhile. Each sees the state from before the batch's transaction
 * whatever the order (none of them sees another's effect, as when they ran one after the other),
 * and a batch holds one of the process's few transaction slots (`TransactionSlots`): run one by
 * one, a batch of verdicts would wait for its calls to another service in a row while every other
 * consumer of the process waits for the slot. A step that throws splits the batch: no new step
 * starts, the ones running finish, and the first error is thrown. `applied` reads the inbox.
 */
export async function prepareBatch(
  items: BatchItem[],
  options: Pick<InboundOptions, 'consumer' | 'prepare'>,
  applied: (messageId: string) => Promise<boolean>,
): Promise<void> {
  const prepare = options.prepare;
  if (!prepare) return;
  let next = 0;
  let failure: { error: unknown } | null = null;
  const worker = async (): Promise<void> => {
    // After a failure no new step starts; the ones running finish before the batch is split.
    while (next < items.length && !failure) {
      const item = items[next++]!;
      const { msg, envelope } = item;
      try {
        item.prepared = await runInScope(
          natsHeaderReader(msg.headers),
          envelope.correlationId,
          consumerSpan(options.consumer, `${envelope.type} prepare`),
          () => prepare(envelope, () => applied(envelope.eventId)),
        );
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(PREPARE_CONCURRENCY, items.length) }, worker));
  if (failure) throw (failure as { error: unknown }).error;
}
