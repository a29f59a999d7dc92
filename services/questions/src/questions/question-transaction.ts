import type { EntityManager } from 'typeorm';
import { DeciderTransaction, type OutboxWriter } from '@openq/messaging';
import { question, type Question, type QuestionCommand, type QuestionEvent } from './domain/question';
import { QuestionLog, questionToWire, type QuestionWireEvent } from './question-log';
import { project } from './projections/question-view.projector';

export type QuestionTransaction = DeciderTransaction<
  QuestionCommand,
  Question | null,
  QuestionEvent,
  QuestionWireEvent
>;

/**
 * The questions slice of the decider kit (docs/decider-kit.md), inside the caller's transaction,
 * for a question the caller has locked and loaded: the decided events are appended to the log
 * under their wire ids, projected, and queued in the outbox — all or nothing. Declarations do not
 * come here: their one statement lets the log's unique index decide (see the doc).
 */
export function questionTransaction(
  manager: EntityManager,
  outbox: OutboxWriter,
  log = new QuestionLog(manager),
): QuestionTransaction {
  return new DeciderTransaction(
    {
      decider: question,
      projectOf: (q) => q?.projectId ?? null,
      toWire: questionToWire,
      save: async (q, { projectId, published }) => {
        if (!q) return;
        const appended = await log.append(projectId, q.declared.questionId, published);
        await project(manager, projectId, appended);
      },
    },
    outbox,
  );
}
