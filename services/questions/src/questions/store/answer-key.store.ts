import type { EntityManager } from 'typeorm';

/** How long a key is remembered. */
export const ANSWER_KEY_TTL_HOURS = 24;

/** The key was taken, in this very moment, by the same user for another question. */
export class AnswerKeyTaken extends Error {}

/** A click's key: per project and user. */
export interface AnswerKey {
  projectId: string;
  userId: string;
  key: string;
}

export const answerKeyOf = (k: AnswerKey): string => JSON.stringify([k.projectId, k.userId, k.key]);

/**
 * The keys among these that were used in the last `ANSWER_KEY_TTL_HOURS`, with the fingerprint
 * of the request each stands for (by `answerKeyOf`), in one statement.
 */
export async function seenAnswerKeys(
  manager: EntityManager,
  keys: readonly AnswerKey[],
): Promise<Map<string, string>> {
  if (keys.length === 0) return new Map();
  const rows: (AnswerKey & { fingerprint: string })[] = await manager.query(
    `SELECT a.project_id AS "projectId", a.user_id AS "userId", a.idempotency_key AS "key", a.fingerprint
       FROM answer_key a JOIN unnest($1::text[], $2::text[], $3::text[]) AS k(p, u, ik)
         ON a.project_id = k.p AND a.user_id = k.u AND a.idempotency_key = k.ik
      WHERE a.created_at > now() - ($4 * interval '1 hour')`,
    [keys.map((k) => k.projectId), keys.map((k) => k.userId), keys.map((k) => k.key), ANSWER_KEY_TTL_HOURS],
  );
  return new Map(rows.map((r) => [answerKeyOf(r), r.fingerprint]));
}

/**
 * Remembers the keys of answers just recorded, with the expired ones cleared first, in two
 * statements. A key another transaction took meanwhile (the same user, another question) throws
 * `AnswerKeyTaken`: the answer must not stand, so the transaction rolls back (a group commit then
 * retries each unit alone, and that one is refused 422). Keys go in in one order, so two
 * transactions sharing keys never deadlock.
 */
export async function rememberAnswerKeys(
  manager: EntityManager,
  keys: readonly (AnswerKey & { questionId: string; fingerprint: string })[],
): Promise<void> {
  if (keys.length === 0) return;
  await manager.query(`DELETE FROM answer_key WHERE created_at <= now() - ($1 * interval '1 hour')`, [
    ANSWER_KEY_TTL_HOURS,
  ]);
  const stored: unknown[] = await manager.query(
    `INSERT INTO answer_key (project_id, user_id, idempotency_key, question_id, fingerprint)
     SELECT p, u, ik, q, f FROM unnest($1::text[], $2::text[], $3::text[], $4::uuid[], $5::text[]) AS t(p, u, ik, q, f)
      ORDER BY p, u, ik
     ON CONFLICT DO NOTHING RETURNING 1`,
    [
      keys.map((k) => k.projectId),
      keys.map((k) => k.userId),
      keys.map((k) => k.key),
      keys.map((k) => k.questionId),
      keys.map((k) => k.fingerprint),
    ],
  );
  if (stored.length !== keys.length) throw new AnswerKeyTaken();
}
