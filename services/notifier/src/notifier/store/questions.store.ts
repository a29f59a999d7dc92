import { LRUCache } from 'lru-cache';
import type { EntityManager } from 'typeorm';
import { deferRows } from '@openq/persistence';
import { affectsFromWire, affectsToWire, type Afeta } from '@openq/contracts';
import type { KnownQuestion } from '../domain/recipients';

/** A declared question as the notifier keeps it, and when it was declared. */
export type DeclaredQuestion = KnownQuestion & { declaredAt: string };

/** `afeta` as its column holds it: the wire's words (the contract's `Afeta`). */
export type AfetaColumn = Afeta;

/**
 * Keeps what the notifier needs of a declared question (a redelivery changes nothing). Nothing
 * reads its result: a row of a deferred write (`deferRows`), so a batch's declarations are kept in
 * one statement, sent before the transaction's next one (a read of the table included). Of two
 * rows of one question in that statement the first stays, as one insert after the other would.
 */
export async function saveQuestion(m: EntityManager, projectId: string, q: DeclaredQuestion): Promise<void> {
  const { declaredAt: _declaredAt, ...known } = q;
  remember(projectId, { ...known, affects: affectsFromWire(affectsToWire(q.affects)) });
  await deferRows(m, SAVE_QUESTIONS, [
    q.questionId,
    projectId,
    q.sessionAuthorId,
    q.askedBy,
    q.question,
    q.suggestion,
    JSON.stringify(affectsToWire(q.affects)),
    q.origin,
    q.declaredAt,
  ]);
}

const SAVE_QUESTIONS = `INSERT INTO notifier_question
    (question_id, project_id, session_author_id, autor, pergunta, sugestao, afeta, origin, declared_at)
  SELECT * FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::jsonb[],
                       $8::text[], $9::timestamptz[])
  ON CONFLICT (question_id) DO NOTHING`;

/** The columns a `KnownQuestion` is read from (`toKnownQuestion`). */
export const KNOWN_QUESTION_COLUMNS =
  'question_id, session_author_id, autor, pergunta, sugestao, afeta, origin';

export interface QuestionRow {
  question_id: string;
  session_author_id: string;
  autor: string;
  pergunta: string;
  sugestao: string | null;
  afeta: AfetaColumn;
  origin: string;
}

/** The project's questions among `ids` that the notifier has heard declared. */
export async function loadQuestions(
  m: EntityManager,
  projectId: string,
  ids: readonly string[],
): Promise<Map<string, KnownQuestion>> {
  if (ids.length === 0) return new Map();
  const kept = ids.map((id) => remembered.get(keyOf(projectId, id)));
  if (kept.every((q) => q !== undefined)) return new Map(kept.map((q) => [q.questionId, q]));
  const rows: QuestionRow[] = await m.query(
    `SELECT ${KNOWN_QUESTION_COLUMNS}
       FROM notifier_question WHERE project_id = $1 AND question_id = ANY($2::uuid[])`,
    [projectId, [...new Set(ids)]],
  );
  const read = new Map(rows.map((r) => [r.question_id, toKnownQuestion(r)]));
  for (const q of read.values()) remember(projectId, q);
  return read;
}

/**
 * What the notifier keeps of a question never changes once declared (its columns here are the
 * declaration's; only its clock and status move, and they are not part of it), so this process
 * remembers the questions it kept or read, up to ~4 MB, and a fact naming only remembered ones
 * costs no read: a gate's park or resume notice is then a unit of writes alone, which goes as one
 * statement (docs/decisions.md, "The notifier remembers what it kept of a question"). A question
 * kept in a transaction that rolls back is remembered with the same words it will be kept with
 * when its declaration is applied again.
 */
const remembered = new LRUCache<string, KnownQuestion>({
  maxSize: 4 * 1024 * 1024,
  sizeCalculation: (q) => 256 + 2 * JSON.stringify(q).length,
});

const keyOf = (projectId: string, questionId: string) => `${projectId}\u0000${questionId}`;

function remember(projectId: string, q: KnownQuestion): void {
  remembered.set(keyOf(projectId, q.questionId), q);
}

export function toKnownQuestion(r: QuestionRow): KnownQuestion {
  return {
    questionId: r.question_id,
    sessionAuthorId: r.session_author_id,
    askedBy: r.autor,
    question: r.pergunta,
    suggestion: r.sugestao,
    affects: affectsFromWire(r.afeta),
    origin: r.origin,
  };
}
