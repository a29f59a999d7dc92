import type { EntityManager } from 'typeorm';
import { CANDIDATE_THRESHOLD, askKey } from '../../domain/same-question';

/** How many of the most alike questions the store hands the decision (per declaration). */
const CANDIDATES = 5;

/**
 * §12.3 serialises the declarations of these projects until the transaction ends, so two agents
 * asking the same thing at once meet (the second sees the first), in one statement; it also sets
 * the candidates' `pg_trgm` threshold for this transaction. Locks are taken in one order.
 */
export async function lockAskers(manager: EntityManager, projectIds: readonly string[]): Promise<void> {
  await manager.query(
    `SELECT count(pg_advisory_xact_lock(k)), set_config('pg_trgm.similarity_threshold', $2, true)
       FROM (SELECT DISTINCT hashtext('ask:' || p) AS k FROM unnest($1::text[]) AS p ORDER BY k) AS keys`,
    [[...new Set(projectIds)], String(CANDIDATE_THRESHOLD)],
  );
}

/** A tool call that already had its outcome: declared, joined, or met a precedent. */
export interface EarlierCall {
  type: 'question.declared' | 'question.joined' | 'question.precedent_offered';
  questionId: string;
}

/**
 * What these tool calls already did in their projects (a redelivered event, a retried request),
 * by `projectId\0toolCallId`, in one statement read through the log's unique indexes.
 */
export async function earlierCalls(
  manager: EntityManager,
  calls: readonly { projectId: string; toolCallId: string }[],
): Promise<Map<string, EarlierCall>> {
  if (calls.length === 0) return new Map();
  const rows: { type: EarlierCall['type']; question_id: string; project_id: string; call: string }[] =
    await manager.query(
      `WITH c(p, t) AS (SELECT * FROM unnest($1::text[], $2::text[]))
       SELECT type, question_id, project_id, data->>'toolCallId' AS call FROM question_log
        WHERE type = 'question.declared' AND data->>'toolCallId' IS NOT NULL
          AND (project_id, data->>'toolCallId') IN (SELECT p, t FROM c)
       UNION ALL
       SELECT type, question_id, project_id, data->'asker'->>'toolCallId' FROM question_log
        WHERE type IN ('question.joined', 'question.precedent_offered') AND data->'asker'->>'toolCallId' IS NOT NULL
          AND (project_id, data->'asker'->>'toolCallId') IN (SELECT p, t FROM c)`,
      [calls.map((c) => c.projectId), calls.map((c) => c.toolCallId)],
    );
  // A split asker's call has both its join and, since the split, its own question: the question wins.
  const byCall = new Map<string, EarlierCall>();
  for (const r of rows) {
    const key = `${r.project_id}\u0000${r.call}`;
    if (byCall.get(key)?.type !== 'question.declared')
      byCall.set(key, { type: r.type, questionId: r.question_id });
  }
  return byCall;
}

/**
 * The project's open or answered questions most alike each declaration (`pg_trgm` over the
 * folded `ask_key`, the GIN index `question_view_ask`), at most `CANDIDATES` each, most alike
 * first, in one statement for the group. The decision is `askOnce`'s, on the loaded questions.
 */
export async function candidatesFor(
  manager: EntityManager,
  asks: readonly { projectId: string; pergunta: string }[],
): Promise<string[][]> {
  const out: string[][] = asks.map(() => []);
  const keys = asks.map((a) => askKey(a.pergunta));
  const wanted = asks.map((_, i) => i).filter((i) => keys[i] !== '');
  if (wanted.length === 0) return out;
  const rows: { i: number; question_id: string }[] = await manager.query(
    `SELECT t.i::int AS i, c.question_id FROM unnest($1::int[], $2::text[], $3::text[]) AS t(i, p, k)
       CROSS JOIN LATERAL (
         SELECT question_id FROM question_view
          WHERE project_id = t.p AND status IN ('open', 'answered') AND question_ask_near(ask_key, t.k)
          ORDER BY question_ask_similarity(ask_key, t.k) DESC LIMIT ${CANDIDATES}) AS c`,
    [wanted, wanted.map((i) => asks[i]!.projectId), wanted.map((i) => keys[i]!)],
  );
  for (const r of rows) out[r.i]!.push(r.question_id);
  return out;
}
