import type { EntityManager } from 'typeorm';
import type { QuestionDeclared } from '@openq/contracts';
import type { KnownQuestion } from '../domain/recipients';

/** Keeps what the notifier needs of a declared question (a redelivery changes nothing). */
export async function saveQuestion(m: EntityManager, projectId: string, d: QuestionDeclared): Promise<void> {
  await m.query(
    `INSERT INTO notifier_question
       (question_id, project_id, session_author_id, autor, pergunta, sugestao, afeta, origin, declared_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
     ON CONFLICT (question_id) DO NOTHING`,
    [
      d.questionId,
      projectId,
      d.sessionAuthorId,
      d.autor,
      d.pergunta,
      d.sugestao ?? null,
      JSON.stringify(d.afeta),
      d.origin,
      d.declaredAt,
    ],
  );
}

/** The columns a `KnownQuestion` is read from (`toKnownQuestion`). */
export const KNOWN_QUESTION_COLUMNS =
  'question_id, session_author_id, autor, pergunta, sugestao, afeta, origin';

export interface QuestionRow {
  question_id: string;
  session_author_id: string;
  autor: string;
  pergunta: string;
  sugestao: string | null;
  afeta: KnownQuestion['afeta'];
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
    autor: r.autor,
    pergunta: r.pergunta,
    sugestao: r.sugestao,
    afeta: r.afeta,
    origin: r.origin,
  };
}
