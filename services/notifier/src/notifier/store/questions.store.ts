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
  const rows: QuestionRow[] = await m.query(
    `SELECT ${KNOWN_QUESTION_COLUMNS}
       FROM notifier_question WHERE project_id = $1 AND question_id = ANY($2::uuid[])`,
    [projectId, [...new Set(ids)]],
  );
  return new Map(rows.map((r) => [r.question_id, toKnownQuestion(r)]));
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
