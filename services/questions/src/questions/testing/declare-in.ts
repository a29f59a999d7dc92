import type { DataSource } from 'typeorm';
import { OutboxWriter } from '@openq/messaging';
import { declareQuestion, type DeclareResult } from '../commands/declare-question/declare-question.handler';

/** Declares a question the way every door does (log, projection, outbox) in a transaction of its own. */
export function declareIn(
  ds: DataSource,
  projectId: string,
  question: { pergunta: string; toolCallId: string | null },
): Promise<DeclareResult> {
  return ds.transaction(async (m) => {
    const outbox = new OutboxWriter(m);
    const result = await declareQuestion(
      m,
      outbox,
      projectId,
      {
        sessionId: 's',
        sessionAuthorId: 'ana',
        autor: 'po',
        origin: 'tool',
        pergunta: question.pergunta,
        sugestao: null,
        afeta: { regras: [], historias: [], tarefas: [] },
        toolCallId: question.toolCallId,
      },
      new Date(),
    );
    await outbox.flush();
    return result;
  });
}
