import type { EntityManager } from 'typeorm';
import type {
  DecisionSuperseded,
  QuestionAnswered,
  QuestionDeclared,
  QuestionWithdrawn,
} from '@openq/contracts';
import type { AppendedEvent } from '../question-log';

/**
 * Keeps the list's read model (one row per question, and open/answered/withdrawn counts per project) in
 * step with the log. Live writes call it in the appending transaction; `openq replay` calls it
 * for the whole log, in position order, into emptied tables — the same function, the same result.
 */
export async function project(
  manager: EntityManager,
  projectId: string,
  appended: AppendedEvent[],
): Promise<void> {
  for (const { position, event } of appended) {
    if (event.type === 'question.declared') {
      const declared = event.data as QuestionDeclared;
      const inserted: unknown[] = await manager.query(
        `INSERT INTO question_view (question_id, project_id, declared_position, status, declared, answered, last_position)
         VALUES ($1, $2, $3, 'open', $4::jsonb, NULL, $3) ON CONFLICT (question_id) DO NOTHING RETURNING 1`,
        [declared.questionId, projectId, position, JSON.stringify(declared)],
      );
      if (inserted.length > 0) await bumpCounts(manager, projectId, 1, 0);
    } else if (event.type === 'question.answered') {
      const answered = event.data as QuestionAnswered;
      const updated: unknown[] = await manager.query(
        `UPDATE question_view SET status = 'answered', answered = $2::jsonb, last_position = $3
          WHERE question_id = $1 AND status = 'open' RETURNING 1`,
        [answered.questionId, JSON.stringify(answered), position],
      );
      if (updated.length > 0) await bumpCounts(manager, projectId, -1, 1);
    } else if (event.type === 'question.withdrawn') {
      const withdrawn = event.data as QuestionWithdrawn;
      const updated: unknown[] = await manager.query(
        `UPDATE question_view SET status = 'withdrawn', withdrawn = $2::jsonb, last_position = $3
          WHERE question_id = $1 AND status = 'open' RETURNING 1`,
        [withdrawn.questionId, JSON.stringify(withdrawn), position],
      );
      if (updated.length > 0) await bumpCounts(manager, projectId, -1, 0, 1);
    } else if (event.type === 'decision.superseded') {
      // §11.5 the session author's decision stands over the agent's; the counts do not move.
      const superseded = event.data as DecisionSuperseded;
      await manager.query(
        `UPDATE question_view SET amended = $2::jsonb, last_position = $3
          WHERE question_id = $1 AND status = 'answered' AND amended IS NULL`,
        [superseded.questionId, JSON.stringify(superseded), position],
      );
    }
  }
}

async function bumpCounts(
  manager: EntityManager,
  projectId: string,
  open: number,
  answered: number,
  withdrawn = 0,
): Promise<void> {
  await manager.query(
    `INSERT INTO question_counts (project_id, open, answered, withdrawn) VALUES ($1, $2, $3, $4)
     ON CONFLICT (project_id) DO UPDATE SET open = question_counts.open + $2,
       answered = question_counts.answered + $3, withdrawn = question_counts.withdrawn + $4`,
    [projectId, open, answered, withdrawn],
  );
}
