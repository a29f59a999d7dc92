import type { EntityManager } from 'typeorm';
import type { QuestionAnswered, QuestionDeclared, QuestionWithdrawn } from '@openq/contracts';

/**
 * The project's questions as far as the context needs them: the open ones for the askers' turn
 * and the answered state a story correction cites. The events come through their own consumers and
 * may land in any order, so each writes only its own columns; the first answer stays. §11.5 a
 * withdrawn question leaves the open list and never becomes a decision (none is recorded for it).
 */
export async function projectQuestionDeclared(
  manager: EntityManager,
  projectId: string,
  declared: QuestionDeclared,
): Promise<void> {
  await manager.query(
    `INSERT INTO context_question (project_id, question_id, pergunta, sugestao, declared_at)
     VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (project_id, question_id) DO UPDATE
       SET pergunta = EXCLUDED.pergunta, sugestao = EXCLUDED.sugestao, declared_at = EXCLUDED.declared_at`,
    [projectId, declared.questionId, declared.pergunta, declared.sugestao ?? null, declared.declaredAt],
  );
}

/**
 * Marks the question answered (the first answer's instant stays). Applied from `decision.recorded`,
 * which every answer publishes with `decidedAt` = `answeredAt` (issue #14: one message per answer
 * here, not two); an amendment's decision finds it answered already.
 */
export async function projectQuestionAnswered(
  manager: EntityManager,
  projectId: string,
  answered: Pick<QuestionAnswered, 'questionId' | 'answeredAt'>,
): Promise<void> {
  await manager.query(
    `INSERT INTO context_question (project_id, question_id, answered_at) VALUES ($1, $2, $3)
     ON CONFLICT (project_id, question_id) DO UPDATE
       SET answered_at = COALESCE(context_question.answered_at, EXCLUDED.answered_at)`,
    [projectId, answered.questionId, answered.answeredAt],
  );
}

export async function projectQuestionWithdrawn(
  manager: EntityManager,
  projectId: string,
  withdrawn: QuestionWithdrawn,
): Promise<void> {
  await manager.query(
    `INSERT INTO context_question (project_id, question_id, withdrawn_at) VALUES ($1, $2, $3)
     ON CONFLICT (project_id, question_id) DO UPDATE
       SET withdrawn_at = COALESCE(context_question.withdrawn_at, EXCLUDED.withdrawn_at)`,
    [projectId, withdrawn.questionId, withdrawn.withdrawnAt],
  );
}
