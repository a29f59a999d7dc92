import type { EntityManager } from 'typeorm';
import { isRefusal, newId, OpenqEvent } from '@openq/contracts';
import type { OutboxWriter } from '@openq/messaging';
import { decideAnswer, type AnswerCommand, type AnswerDecision } from '../../domain/question';
import { QuestionLog } from '../../question-log';
import { project } from '../../projections/question-view.projector';

/**
 * The one answering core behind both doors (click and agent). Answers to one question are
 * serialised by a transaction lock, and the log's unique index on (question, answered) is the
 * guarantee behind it: `question.answered` and `decision.recorded` are appended in the
 * caller's transaction, together with their outbox rows — both or neither.
 */
export async function answerQuestion(
  manager: EntityManager,
  outbox: OutboxWriter,
  projectId: string,
  questionId: string,
  command: AnswerCommand,
  now: Date,
): Promise<AnswerDecision> {
  const log = new QuestionLog(manager);
  await log.lockQuestion(questionId);
  const question = await log.load(questionId);
  const decision = decideAnswer(command, question, projectId, newId(), now);
  if (isRefusal(decision) || decision.kind !== 'answered') return decision;
  const appended = await log.append(projectId, questionId, [
    { type: 'question.answered', data: decision.answered },
    { type: 'decision.recorded', data: decision.decision },
  ]);
  await project(manager, projectId, appended);
  for (const a of appended) {
    const type =
      a.event.type === 'question.answered' ? OpenqEvent.QuestionAnswered : OpenqEvent.DecisionRecorded;
    outbox.event(type, projectId, a.event.data, { eventId: a.eventId });
  }
  return decision;
}
