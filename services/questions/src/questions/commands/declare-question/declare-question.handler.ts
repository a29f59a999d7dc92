import type { EntityManager } from 'typeorm';
import { newId } from '@openq/contracts';
import type { OutboxWriter } from '@openq/messaging';
import { question, type DeclareInput } from '../../domain/question';
import { questionTransaction } from '../../question-transaction';

export interface DeclareResult {
  questionId: string;
  created: boolean;
}

/**
 * Declares a question (any door: tool event, internal route, QA verdict, analyst) through the
 * questions slice of the decider kit. The same `toolCallId` in a project always yields the same
 * question: the log's unique index on it decides, in the insert itself, with no lock and no read
 * before it; when the key was taken the slice stores and publishes nothing and hands back the
 * existing question (docs/decider-kit.md, "Questions").
 */
export async function declareQuestion(
  manager: EntityManager,
  outbox: OutboxWriter,
  projectId: string,
  input: DeclareInput,
  now: Date,
): Promise<DeclareResult> {
  const { state, events } = await questionTransaction(manager, outbox).decideAccepted(
    { type: 'declare', projectId, questionId: newId(), declaration: input },
    question.initialState,
    now,
  );
  if (!state) throw new Error('a declaration left no question');
  return { questionId: state.declared.questionId, created: events.length > 0 };
}
