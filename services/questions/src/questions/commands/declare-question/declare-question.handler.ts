import type { EntityManager } from 'typeorm';
import { isRefusal, newId } from '@openq/contracts';
import type { OutboxWriter } from '@openq/messaging';
import type { DeclareInput } from '../../domain/question';
import { questionTransaction } from '../../question-transaction';

export interface DeclareResult {
  questionId: string;
  created: boolean;
}

/** One declaration to make: its project, what is declared, and its caller's outbox. */
export interface DeclareRequest {
  projectId: string;
  input: DeclareInput;
  outbox: OutboxWriter;
}

/**
 * Declares questions (any door: tool event, internal route, QA verdict, analyst; one, or a group
 * of them in a group commit) through the questions slice of the decider kit. The same
 * `toolCallId` in a project always yields the same question: the log's unique index on it
 * decides, in the one insert of the group, with no lock and no read before it; when the key was
 * taken — by another transaction, or by an earlier declaration of the same group — the slice
 * stores and publishes nothing for it and hands back the existing question, `created: false`
 * (docs/decider-kit.md, "Questions").
 */
export async function declareQuestions(
  manager: EntityManager,
  requests: readonly DeclareRequest[],
  now: Date,
): Promise<DeclareResult[]> {
  if (requests.length === 0) return [];
  const batch = questionTransaction(manager, requests[0]!.outbox).batch();
  const entries = requests.map(({ projectId, input, outbox }) => {
    const questionId = newId();
    const entry = batch.decide(
      questionId,
      { type: 'declare', projectId, questionId, declaration: input },
      now,
      outbox,
    );
    if (isRefusal(entry)) throw new Error(`declaration refused: ${entry.reason}: ${entry.message}`);
    return entry;
  });
  await batch.commit();
  return entries.map(({ stored }) => {
    if (!stored?.state) throw new Error('a declaration left no question');
    return { questionId: stored.state.declared.questionId, created: stored.events.length > 0 };
  });
}

/** One declaration in the caller's transaction (an event through the inbox): a group of one. */
export async function declareQuestion(
  manager: EntityManager,
  outbox: OutboxWriter,
  projectId: string,
  input: DeclareInput,
  now: Date,
): Promise<DeclareResult> {
  const [result] = await declareQuestions(manager, [{ projectId, input, outbox }], now);
  return result!;
}
