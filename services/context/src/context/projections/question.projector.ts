import type { EntityManager } from 'typeorm';
import { deferWrite } from '@openq/persistence';
import type { QuestionAnswered, QuestionDeclared, QuestionWithdrawn } from '@openq/contracts';

/**
 * The project's questions as far as the context needs them: the open ones for the askers' turn
 * and the answered state a story correction cites. The events come through their own consumers and
 * may land in any order, so each writes only its own columns; the first answer stays. §11.5 a
 * withdrawn question leaves the open list and never becomes a decision (none is recorded for it).
 * Nothing reads what they return: each goes with the transaction's next statement (`deferWrite`).
 */
export async function projectQuestionDeclared(
  manager: EntityManager,
  projectId: string,
  declared: QuestionDeclared,
): Promise<void> {
  await deferWrite(
    manager,
    `INSERT INTO context_question (project_id, question_id, pergunta, sugestao, declared_at)
     VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (project_id, question_id) DO UPDATE
       SET pergunta = EXCLUDED.pergunta, sugestao = EXCLUDED.sugestao, declared_at = EXCLUDED.declared_at`,
    [projectId, declared.questionId, declared.pergunta, declared.sugestao ?? null, declared.declaredAt],
    questionKey(projectId, declared.questionId),
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
  await deferWrite(
    manager,
    `INSERT INTO context_question (project_id, question_id, answered_at) VALUES ($1, $2, $3)
     ON CONFLICT (project_id, question_id) DO UPDATE
       SET answered_at = COALESCE(context_question.answered_at, EXCLUDED.answered_at)`,
    [projectId, answered.questionId, answered.answeredAt],
    questionKey(projectId, answered.questionId),
  );
}

export async function projectQuestionWithdrawn(
  manager: EntityManager,
  projectId: string,
  withdrawn: QuestionWithdrawn,
): Promise<void> {
  await deferWrite(
    manager,
    `INSERT INTO context_question (project_id, question_id, withdrawn_at) VALUES ($1, $2, $3)
     ON CONFLICT (project_id, question_id) DO UPDATE
       SET withdrawn_at = COALESCE(context_question.withdrawn_at, EXCLUDED.withdrawn_at)`,
    [projectId, withdrawn.questionId, withdrawn.withdrawnAt],
    questionKey(projectId, withdrawn.questionId),
  );
}

/** The `context_question` row a write touches (two writes of one row never share a statement). */
function questionKey(projectId: string, questionId: string): string {
  return `context_question:${projectId}:${questionId}`;
}
