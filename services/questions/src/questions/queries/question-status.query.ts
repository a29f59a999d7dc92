import type { EntityManager } from 'typeorm';
import type { DeclaredByReply, QuestionStatusItem, QuestionStatusReply } from '@openq/contracts';

/**
 * [openq] §11.2 `openq.questions.status`: what the log itself (the source of truth, not the
 * projection) has committed about each id, in this project. A question of another project is
 * `absent`, as the answer route's 404 does not tell it apart either. One statement, one snapshot.
 */
export async function questionStatuses(
  manager: EntityManager,
  projectId: string,
  questionIds: readonly string[],
): Promise<QuestionStatusReply> {
  const ids = [...new Set(questionIds)];
  const rows: {
    question_id: string;
    type: string;
    decision_event_id: string | null;
    answered_at: string | null;
  }[] = await manager.query(
    `SELECT question_id, type, data->>'decisionEventId' AS decision_event_id, data->>'answeredAt' AS answered_at
         FROM question_log
        WHERE project_id = $1 AND question_id = ANY($2::uuid[])
          AND type IN ('question.declared', 'question.answered', 'question.withdrawn')`,
    [projectId, ids],
  );
  const items = ids.map((questionId): QuestionStatusItem => {
    const own = rows.filter((row) => row.question_id === questionId);
    const answered = own.find((row) => row.type === 'question.answered');
    if (answered) {
      return {
        questionId,
        status: 'answered',
        decisionEventId: answered.decision_event_id,
        answeredAt: answered.answered_at,
      };
    }
    const declared = own.some((row) => row.type === 'question.declared');
    const withdrawn = own.some((row) => row.type === 'question.withdrawn');
    const status = !declared ? 'absent' : withdrawn ? 'withdrawn' : 'open';
    return { questionId, status, decisionEventId: null, answeredAt: null };
  });
  return { items };
}

/**
 * [openq] issue #34 the question `toolCallId` declared in this project, from the log (its unique
 * index on the tool call), or `null` while none is committed.
 */
export async function declaredBy(
  manager: EntityManager,
  projectId: string,
  toolCallId: string,
): Promise<DeclaredByReply> {
  const rows: { question_id: string }[] = await manager.query(
    `SELECT question_id FROM question_log
      WHERE project_id = $1 AND type = 'question.declared' AND data->>'toolCallId' = $2`,
    [projectId, toolCallId],
  );
  return { questionId: rows[0]?.question_id ?? null };
}
