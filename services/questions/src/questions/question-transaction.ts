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
 * under their wire ids, projected, and queued in the outbox — all or nothing. A declaration comes
 * here with no lock and no state (`null`): its one statement lets the log's unique index decide,
 * and when the `toolCallId` was taken `save` stores nothing and hands back the winner's question,
 * so no `question.declared` is published for it (see the doc).
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
        const [first] = published;
        if (first?.type === 'question.declared') {
          if (published.length !== 1) throw new Error('a declaration is saved alone');
          const appended = await log.appendDeclaration(projectId, first);
          if (appended) return project(manager, projectId, [appended]);
          const toolCallId = first.data.toolCallId!;
          const winner = await log.loadByToolCall(projectId, toolCallId);
          if (!winner)
            throw new Error(`toolCallId ${toolCallId} was taken, but its declaration cannot be read`);
          return { state: winner, events: [] };
        }
        const appended = await log.append(projectId, q.declared.questionId, published);
        await project(manager, projectId, appended);
      },
    },
    outbox,
  );
}
