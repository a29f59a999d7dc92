import type { EntityManager } from 'typeorm';
import { newId } from '@openq/contracts';
import {
  DeciderTransaction,
  type DeciderBatch,
  type OutboxWriter,
  type Saved,
  type SaveEntry,
} from '@openq/messaging';
import { question, type Question, type QuestionCommand, type QuestionEvent } from './domain/question';
import {
  answerToWire,
  declarationToWire,
  decisionToWire,
  joinToWire,
  precedentOfferToWire,
  QuestionLog,
  supersessionToWire,
  toolCallKey,
  withdrawalToWire,
  type QuestionWireEvent,
} from './store/question-log.store';
import { project, type ProjectEvents } from './projections/question-view.projector';

export type QuestionTransaction = DeciderTransaction<
  QuestionCommand,
  Question | null,
  QuestionEvent,
  QuestionWireEvent
>;

/** A batch of the questions slice: commands decided in memory, saved together on `commit`. */
export type QuestionBatch = DeciderBatch<QuestionCommand, Question | null, QuestionEvent, QuestionWireEvent>;

/**
 * The questions slice's domain → wire map (docs/decider-kit.md): every question event is
 * published, with the payload the log stores. A decision keeps its `decisionEventId` as its id;
 * the others get a new one.
 */
export function questionToWire(event: QuestionEvent): QuestionWireEvent {
  const { occurredAt } = event;
  switch (event.type) {
    case 'question.declared':
      return { type: event.type, data: declarationToWire(event.data.declared), occurredAt, eventId: newId() };
    case 'question.withdrawn': {
      return { type: event.type, data: withdrawalToWire(event.data), occurredAt, eventId: newId() };
    }
    case 'decision.superseded':
      return { type: event.type, data: supersessionToWire(event.data), occurredAt, eventId: newId() };
    case 'question.answered':
      return { type: event.type, data: answerToWire(event.data), occurredAt, eventId: newId() };
    case 'question.joined':
      return { type: event.type, data: joinToWire(event.data), occurredAt, eventId: newId() };
    case 'question.precedent_offered':
      return { type: event.type, data: precedentOfferToWire(event.data), occurredAt, eventId: newId() };
    case 'question.split':
      return { ...event, eventId: newId() };
    case 'decision.recorded':
      return {
        type: event.type,
        data: decisionToWire(event.data),
        occurredAt,
        eventId: event.data.decisionEventId,
      };
    default: {
      const unreachable: never = event;
      return unreachable;
    }
  }
}

/**
 * The questions slice of the decider kit (docs/decider-kit.md), inside the caller's transaction,
 * for questions the caller has locked and loaded: the decided events are appended to the log
 * under their wire ids, projected, and queued in the outbox — all or nothing. A declaration comes
 * here with no lock and no state (`null`): its statement lets the log's unique index decide, and
 * when the `toolCallId` was taken `save` stores nothing and hands back the winner's question, so
 * no `question.declared` is published for it (see the doc). A batch (a group commit, or one
 * command) is saved set-based: its declarations in one insert, its other events in another, the
 * losers' winners in one read, the projection in one statement per kind.
 */
export function questionTransaction(
  manager: EntityManager,
  outbox: OutboxWriter,
  log = new QuestionLog(manager),
): QuestionTransaction {
  const saveAll = async (
    entries: readonly SaveEntry<Question | null, QuestionEvent, QuestionWireEvent>[],
  ): Promise<(void | Saved<Question | null, QuestionEvent>)[]> => {
    const declarations: { index: number; projectId: string; declared: DeclaredWire }[] = [];
    const others: { index: number; projectId: string; questionId: string; events: QuestionWireEvent[] }[] =
      [];
    entries.forEach(({ state, written: { projectId, published } }, index) => {
      if (!state) return;
      const [first] = published;
      if (first?.type === 'question.declared') {
        if (published.length !== 1) throw new Error('a declaration is saved alone');
        declarations.push({ index, projectId, declared: first });
      } else {
        others.push({ index, projectId, questionId: state.declared.questionId, events: [...published] });
      }
    });
    const results: (void | Saved<Question | null, QuestionEvent>)[] = entries.map(() => undefined);
    const projected: ProjectEvents[] = [];
    const appended = await log.appendDeclarations(declarations);
    const lost: typeof declarations = [];
    declarations.forEach((d, i) => {
      const row = appended[i];
      if (row) projected.push({ projectId: d.projectId, appended: [row] });
      else lost.push(d);
    });
    if (lost.length > 0) {
      const winners = await log.loadByToolCalls(
        lost.map((d) => ({ projectId: d.projectId, toolCallId: d.declared.data.toolCallId! })),
      );
      for (const d of lost) {
        const toolCallId = d.declared.data.toolCallId!;
        const winner = winners.get(toolCallKey(d.projectId, toolCallId));
        if (!winner)
          throw new Error(`toolCallId ${toolCallId} was taken, but its declaration cannot be read`);
        results[d.index] = { state: winner, events: [] };
      }
    }
    const rows = await log.append(others);
    others.forEach((o, i) => projected.push({ projectId: o.projectId, appended: rows[i]! }));
    await project(manager, projected);
    return results;
  };
  return new DeciderTransaction(
    {
      decider: question,
      projectOf: (q) => q?.projectId ?? null,
      toWire: questionToWire,
      save: async (state, written) => (await saveAll([{ state, written }]))[0],
      saveAll,
    },
    outbox,
  );
}

type DeclaredWire = Extract<QuestionWireEvent, { type: 'question.declared' }>;

/**
 * The questions a command works on, locked (the question's lock, which answers, withdrawals,
 * amendments and splits take: one statement, in key order, so two groups sharing questions never
 * deadlock) and loaded from the log (one statement), with a batch of the slice over them.
 */
export async function lockedBatch(
  manager: EntityManager,
  outbox: OutboxWriter,
  questionIds: readonly string[],
  log = new QuestionLog(manager),
): Promise<{ batch: QuestionBatch; loaded: Map<string, Question | null> }> {
  await log.lockQuestions(questionIds);
  const loaded = await log.loadMany(questionIds);
  return { batch: questionTransaction(manager, outbox, log).batch(loaded), loaded };
}
