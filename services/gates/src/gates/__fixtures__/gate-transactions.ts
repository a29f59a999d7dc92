import type { DataSource, EntityManager } from 'typeorm';
import { newId, type QuestionAnswered } from '@openq/contracts';
import { OutboxWriter } from '@openq/messaging';
import { GateTransaction } from '../gate-transaction';

/** Runs `work` in one gate transaction on `ds`; its outbox rows are written before the commit. */
export const inGateTransaction = <T>(
  ds: DataSource,
  work: (manager: EntityManager, tx: GateTransaction) => Promise<T>,
): Promise<T> =>
  ds.transaction(async (manager) => {
    const outbox = new OutboxWriter(manager);
    const result = await work(manager, new GateTransaction(manager, outbox));
    await outbox.flush();
    return result;
  });

/** `question.answered` of `questionId` by a click of the session's author, now. */
export const answeredByClick = (questionId: string, decisionEventId = newId()): QuestionAnswered => ({
  questionId,
  resposta: 'yes',
  aceitouSugestao: false,
  decisionEventId,
  respondidaPor: 'ana',
  viaAgente: null,
  answeredAt: new Date().toISOString(),
});
