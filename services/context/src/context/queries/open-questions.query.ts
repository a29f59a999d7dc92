import type { EntityManager } from 'typeorm';
import { MAX_TURN_OPEN_QUESTIONS, type OpenQuestionFacts } from '../domain';

export interface OpenQuestionsPage {
  /** The newest open questions, up to the turn's ceiling. */
  newest: OpenQuestionFacts[];
  total: number;
}

/** The project's open questions (declared, neither answered nor withdrawn) for an asker's turn: the newest and the count. */
export async function openQuestionsForTurn(
  manager: EntityManager,
  projectId: string,
): Promise<OpenQuestionsPage> {
  // One statement, so the slice and the total come from the same snapshot (two reads could see a
  // question declared in between: a total of 2 next to a list of 1).
  const rows: {
    question_id: string;
    pergunta: string;
    sugestao: string | null;
    declared_at: Date;
    total: string;
  }[] = await manager.query(
    `SELECT question_id, pergunta, sugestao, declared_at, count(*) OVER () AS total FROM context_question
        WHERE project_id = $1 AND answered_at IS NULL AND withdrawn_at IS NULL AND declared_at IS NOT NULL
        ORDER BY declared_at DESC, question_id DESC LIMIT $2`,
    [projectId, MAX_TURN_OPEN_QUESTIONS],
  );
  return {
    newest: rows.map((row) => ({
      questionId: row.question_id,
      pergunta: row.pergunta,
      sugestao: row.sugestao,
      declaredAt: row.declared_at.toISOString(),
    })),
    total: Number(rows[0]?.total ?? 0),
  };
}

/** A cited question as a story correction sees it; null when the project never heard of it. */
export async function findCitedQuestion(
  manager: EntityManager,
  projectId: string,
  questionId: string,
): Promise<{ questionId: string; answered: boolean } | null> {
  const [row]: { answered: boolean }[] = await manager.query(
    `SELECT answered_at IS NOT NULL AS answered FROM context_question WHERE project_id = $1 AND question_id = $2`,
    [projectId, questionId],
  );
  return row ? { questionId, answered: row.answered } : null;
}
