import type { EntityManager } from 'typeorm';
import { newId, OpenqEvent } from '@openq/contracts';
import type { OutboxWriter } from '@openq/messaging';
import { decideDeclare, type DeclareInput } from '../../domain/question';
import { QuestionLog } from '../../question-log';
import { project } from '../../projections/question-view.projector';

export interface DeclareResult {
  questionId: string;
  created: boolean;
}

/**
 * Declares a question (any door: tool event, internal route, QA verdict, analyst). The same
 * `toolCallId` in a project always yields the same question: the log's unique index on it
 * decides, in the insert itself; the existing question is read only when the key was taken.
 */
export async function declareQuestion(
  manager: EntityManager,
  outbox: OutboxWriter,
  projectId: string,
  input: Omit<DeclareInput, 'questionId'>,
  now: Date,
): Promise<DeclareResult> {
  const log = new QuestionLog(manager);
  const declared = decideDeclare({ ...input, questionId: newId() }, now);
  const appended = await log.appendDeclaration(projectId, declared);
  if (!appended) {
    const existing = await log.findByToolCall(projectId, input.toolCallId!);
    if (!existing)
      throw new Error(`toolCallId ${input.toolCallId} was taken, but its declaration cannot be read`);
    return { questionId: existing, created: false };
  }
  await project(manager, projectId, [appended]);
  outbox.event(OpenqEvent.QuestionDeclared, projectId, declared, { eventId: appended.eventId });
  return { questionId: declared.questionId, created: true };
}
