import { createHash } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { isRefusal, refusal, type QuestionAnswered, type Refusal } from '@openq/contracts';
import type { OutboxWriter } from '@openq/messaging';
import type { AnswerCommand } from '../../domain/question';
import { QuestionLog } from '../../question-log';
import { answerQuestion } from './answer-question.handler';

/** How long a key is remembered. */
export const ANSWER_KEY_TTL_HOURS = 24;

type UserAnswer = Extract<AnswerCommand, { by: 'user' }>;

/** The request a key stands for: the question and the answer asked for. */
export function answerFingerprint(questionId: string, command: UserAnswer): string {
  const answer = [questionId, command.resposta ?? null, command.aceitarSugestao === true];
  return createHash('sha256').update(JSON.stringify(answer)).digest('hex');
}

/** The key was taken, in this very moment, by the same user for another question. */
export class AnswerKeyTaken extends Error {}

const keyReused = (): Refusal =>
  refusal(
    422,
    'idempotency_key_reutilizada',
    'this Idempotency-Key was already used for another request; send a new key for a new answer',
  );

/**
 * A click with an `Idempotency-Key`: the first time, the answer is recorded like any click and
 * the key remembered in the same transaction; the same user sending the same request with the
 * same key again gets that answer back (not 409 — the retry of a request whose reply was lost);
 * the key with another request is refused (422). Requests with one key are serialised by the
 * question's lock, so a retry racing its original waits for it and then finds its key.
 */
export async function answerWithKey(
  manager: EntityManager,
  outbox: OutboxWriter,
  projectId: string,
  questionId: string,
  command: UserAnswer,
  key: string,
  now: Date,
): Promise<QuestionAnswered | Refusal> {
  const fingerprint = answerFingerprint(questionId, command);
  const log = new QuestionLog(manager);
  await log.lockQuestion(questionId);
  const seen: { fingerprint: string }[] = await manager.query(
    `SELECT fingerprint FROM answer_key WHERE project_id = $1 AND user_id = $2 AND idempotency_key = $3
        AND created_at > now() - ($4 * interval '1 hour')`,
    [projectId, command.userId, key, ANSWER_KEY_TTL_HOURS],
  );
  if (seen[0]) {
    if (seen[0].fingerprint !== fingerprint) return keyReused();
    const question = await log.load(questionId);
    if (question?.answered) return question.answered;
  }
  const decision = await answerQuestion(manager, outbox, projectId, questionId, command, now);
  if (isRefusal(decision)) return decision;
  if (decision.kind !== 'answered') return decision.answered;
  await manager.query(`DELETE FROM answer_key WHERE created_at <= now() - ($1 * interval '1 hour')`, [
    ANSWER_KEY_TTL_HOURS,
  ]);
  const stored: unknown[] = await manager.query(
    `INSERT INTO answer_key (project_id, user_id, idempotency_key, question_id, fingerprint)
     VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING RETURNING 1`,
    [projectId, command.userId, key, questionId, fingerprint],
  );
  // Taken by a concurrent request of the same user for another question: this answer must not stand.
  if (stored.length === 0) throw new AnswerKeyTaken();
  return decision.answered;
}

export { keyReused as answerKeyReused };
