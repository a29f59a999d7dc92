import type { EntityManager } from 'typeorm';
import { isRefusal, newId } from '@openq/contracts';
import type { OutboxWriter } from '@openq/messaging';
import { question, type DeclareInput } from '../../domain/question';
import { QuestionLog, questionToWire } from '../../question-log';
import { project } from '../../projections/question-view.projector';

export interface DeclareResult {
  questionId: string;
  created: boolean;
}

/**
 * Declares a question (any door: tool event, internal route, QA verdict, analyst). The same
 * `toolCallId` in a project always yields the same question: the log's unique index on it
 * decides, in the insert itself; the existing question is read only when the key was taken.
 * The question decider decides the event and `questionToWire` maps it, as for answers; the write
 * is not the decider transaction's, since only the insert knows whether anything was written
 * (docs/decider-kit.md, "Questions").
 */
export async function declareQuestion(
  manager: EntityManager,
  outbox: OutboxWriter,
  projectId: string,
  input: DeclareInput,
  now: Date,
): Promise<DeclareResult> {
  const log = new QuestionLog(manager);
  const decision = question.decide(
    { type: 'declare', projectId, questionId: newId(), declaration: input },
    question.initialState,
    now,
  );
  const declared = isRefusal(decision) || !decision[0] ? null : questionToWire(decision[0]);
  if (declared?.type !== 'question.declared') throw new Error('a new question was not declared');
  const appended = await log.appendDeclaration(projectId, declared);
  if (!appended) {
    const existing = await log.findByToolCall(projectId, input.toolCallId!);
    if (!existing)
      throw new Error(`toolCallId ${input.toolCallId} was taken, but its declaration cannot be read`);
    return { questionId: existing, created: false };
  }
  await project(manager, projectId, [appended]);
  outbox.event(declared.type, projectId, declared.data, {
    eventId: declared.eventId,
    occurredAt: declared.occurredAt,
  });
  return { questionId: declared.data.questionId, created: true };
}
