import { createHash } from 'node:crypto';
import { refusal, type Refusal } from '@openq/contracts';

/** What a click asks for, in the wire's words. */
export interface UserAnswer {
  resposta?: string;
  aceitarSugestao?: true;
}

/** The request a key stands for: the question and the answer asked for. */
export function answerFingerprint(questionId: string, command: UserAnswer): string {
  const answer = [questionId, command.resposta ?? null, command.aceitarSugestao === true];
  return createHash('sha256').update(JSON.stringify(answer)).digest('hex');
}

export const answerKeyReused = (): Refusal =>
  refusal(
    422,
    'idempotency_key_reutilizada',
    'this Idempotency-Key was already used for another request; send a new key for a new answer',
  );
