import type { EntityManager } from 'typeorm';
import type { Afeta } from '@openq/contracts';
import { askBands, askKey, type Affects } from '../domain/same-question';
import { affectsFromWire } from '@openq/contracts';
import { sendAheadOfNext } from '@openq/persistence';

/** How many of the most alike questions the store hands the decision (per declaration). */
const CANDIDATES = 5;

/**
 * How many band matches are ranked at most: a project whose questions all look alike ("question
 * 1", "question 2", …) would otherwise rank thousands per declaration. Past it a match may be
 * missed — a duplicate question, the cheap error.
 */
const BAND_MATCHES = 100;

/**
 * §12.3 serialises the declarations of these projects until the transaction ends, so two agents
 * asking the same thing at once meet (the second sees the first), in one statement. Locks are
 * taken in one order.
 */
export async function lockAskers(manager: EntityManager, projectIds: readonly string[]): Promise<void> {
  await sendAheadOfNext(
    manager,
    `SELECT count(pg_advisory_xact_lock(k))
       FROM (SELECT DISTINCT hashtext('ask:' || p) AS k FROM unnest($1::text[]) AS p ORDER BY k) AS keys`,
    [[...new Set(projectIds)]],
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
      // Each half joins on the expression and predicate of its partial unique index, so both are index lookups.
      `SELECT l.type, l.question_id, l.project_id, c.t AS call
         FROM unnest($1::text[], $2::text[]) AS c(p, t)
         JOIN question_log l ON l.project_id = c.p AND l.data->>'toolCallId' = c.t
        WHERE l.type = 'question.declared' AND l.data->>'toolCallId' IS NOT NULL
       UNION ALL
       SELECT l.type, l.question_id, l.project_id, c.t
         FROM unnest($1::text[], $2::text[]) AS c(p, t)
         JOIN question_log l ON l.project_id = c.p AND l.data->'asker'->>'toolCallId' = c.t
        WHERE l.type IN ('question.joined', 'question.precedent_offered') AND l.data->'asker'->>'toolCallId' IS NOT NULL`,
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
 * What a declaration probes the index with: its folded key (`askKey`, empty when nothing is to be
 * matched) and the MinHash bands of it (`askBands`, salted with the project).
 */
export interface AskProbe {
  projectId: string;
  key: string;
  bands: readonly string[];
}

/** The probe of a declaration's words (`question` empty: no probe, nothing matched). */
export function askProbe(projectId: string, question: string): AskProbe {
  const key = askKey(question);
  return { projectId, key, bands: key === '' ? [] : askBands(projectId, key) };
}

/** A question the index found near a declaration: what the likeness reads, before any lock. */
export interface Candidate {
  questionId: string;
  question: string;
  affects: Affects;
}

/**
 * The project's open or answered questions most alike each declaration, at most `CANDIDATES`
 * each, most alike first, in one statement for the group: found by the MinHash bands they share
 * with the declaration (`ask_bands`, GIN index `question_view_ask`), ranked by `pg_trgm`'s
 * `similarity()` of the folded keys. The decision is `askOnce`'s, on the loaded questions.
 *
 * The project is checked on the band matches, not in the index scan: the band keys are salted
 * with the project already (only a hash collision crosses projects), and a project condition
 * there let the planner AND the bands' bitmap with the project's whole index once statistics
 * said the project was big (measured after a VACUUM: 8 ms instead of 1 at 100,000 questions).
 */
export async function candidatesFor(
  manager: EntityManager,
  probes: readonly AskProbe[],
): Promise<Candidate[][]> {
  const out: Candidate[][] = probes.map(() => []);
  const wanted = probes.map((_, i) => i).filter((i) => probes[i]!.key !== '');
  if (wanted.length === 0) return out;
  const rows: { i: number; question_id: string; pergunta: string; afeta: Afeta }[] = await manager.query(
    `SELECT t.i::int AS i, c.question_id, c.pergunta, c.afeta FROM unnest($1::int[], $2::text[], $3::text[], $4::jsonb[]) AS t(i, p, k, b)
       CROSS JOIN LATERAL (
         SELECT question_id, declared->>'pergunta' AS pergunta, declared->'afeta' AS afeta FROM (
           SELECT question_id, project_id, ask_key, declared FROM question_view
            WHERE ask_bands && ARRAY(SELECT jsonb_array_elements_text(t.b)) AND status IN ('open', 'answered')
            LIMIT ${BAND_MATCHES}) AS near
          WHERE project_id = t.p
          ORDER BY question_ask_similarity(ask_key, t.k) DESC LIMIT ${CANDIDATES}) AS c`,
    [
      wanted,
      wanted.map((i) => probes[i]!.projectId),
      wanted.map((i) => probes[i]!.key),
      wanted.map((i) => JSON.stringify(probes[i]!.bands)),
    ],
  );
  for (const r of rows)
    out[r.i]!.push({ questionId: r.question_id, question: r.pergunta, affects: affectsFromWire(r.afeta) });
  return out;
}
