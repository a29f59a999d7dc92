import type { JsMsg } from 'nats';
import type { EntityManager } from 'typeorm';
import type { Predecessor, SubjectOrder } from '../subject-order';
import type { BatchItem } from './batch';
import type { Outcome } from './options';

/*
 * Stream order per subject on the inbound path: the message's (or the batch's) turn on its
 * subjects, through `SubjectOrder` (subject-order.ts) when the consumer has one. The positions
 * move in the same transaction as the effects (`SubjectOrder.advance`, `advanceBatch`).
 */

/** Thrown inside a transaction to roll it back: an earlier message of the subject is not settled. */
export class PredecessorPending extends Error {
  constructor(readonly predecessor: Predecessor) {
    super(`waiting for ${predecessor.subject} seq ${predecessor.seq}`);
  }
}

/** Locks the subject's position for the transaction, or rolls it back while an earlier message is pending. */
export async function enterTurn(
  order: SubjectOrder | undefined,
  manager: EntityManager,
  msg: { subject: string; seq: number },
): Promise<void> {
  const predecessor = await order?.enter(manager, msg.subject, msg.seq);
  if (predecessor) throw new PredecessorPending(predecessor);
}

/** A batch's messages that may go now, and the position each of their subjects moves to. */
export interface Admitted {
  taken: BatchItem[];
  moved: { subject: string; seq: number }[];
}

/**
 * The batch's turn (inside its transaction): the positions of all its subjects locked at once
 * (`SubjectOrder.enterBatch`, one statement), then `admit`. Without an order every message goes.
 */
export async function enterBatchTurn(
  order: SubjectOrder | undefined,
  manager: EntityManager,
  subjects: Map<string, BatchItem[]>,
  outcomes: Map<JsMsg, Outcome>,
): Promise<Admitted> {
  const admitted = order
    ? await order.enterBatch(
        manager,
        [...subjects].map(([subject, of]) => ({ subject, seqs: of.map((i) => i.msg.seq) })),
      )
    : null;
  return admit(subjects, admitted, outcomes);
}

/**
 * Pure: of each subject's items (in stream order), the first `admitted.get(subject)` are taken
 * (all of them when `admitted` is null, or does not name the subject) and the rest set to `defer`
 * in `outcomes`; each subject that takes any moves to its last taken sequence.
 */
export function admit(
  subjects: Map<string, BatchItem[]>,
  admitted: Map<string, number> | null,
  outcomes: Map<JsMsg, Outcome>,
): Admitted {
  const taken: BatchItem[] = [];
  const moved: { subject: string; seq: number }[] = [];
  for (const [subject, of] of subjects) {
    const count = admitted?.get(subject) ?? of.length;
    of.forEach((item, i) => (i < count ? taken.push(item) : outcomes.set(item.msg, 'defer')));
    if (count > 0) moved.push({ subject, seq: of[count - 1]!.msg.seq });
  }
  return { taken, moved };
}
