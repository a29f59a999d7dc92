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
 * `toolCallId` in a project always yields the same question: the check runs under a lock on
 * that key and the log's unique index backs it.
 */
export async function declareQuestion(
  manager: EntityManager,
  outbox: OutboxWriter,
  projectId: string,
  input: Omit<DeclareInput, 'questionId'>,
  now: Date,
): Promise<DeclareResult> {
  const log = new QuestionLog(manager);
  if (input.toolCallId) {
    await log.lockToolCall(projectId, input.toolCallId);
    const existing = await log.findByToolCall(projectId, input.toolCallId);
    if (existing) return { questionId: existing, created: false };
  }
  const declared = decideDeclare({ ...input, questionId: newId() }, now);
  const appended = await log.append(projectId, declared.questionId, [{ type: 'question.declared', data: declared }]);
  await project(manager, projectId, appended);
  for (const a of appended) outbox.event(OpenqEvent.QuestionDeclared, projectId, a.event.data, { eventId: a.eventId });
  return { questionId: declared.questionId, created: true };
}
