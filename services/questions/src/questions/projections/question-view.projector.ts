import type { EntityManager } from 'typeorm';
import type { QuestionAnswered, QuestionDeclared } from '@openq/contracts';
import type { AppendedEvent } from '../question-log';

/** Appended events of one project (a group commit projects several projects at once). */
export interface ProjectEvents {
  projectId: string;
  appended: readonly AppendedEvent[];
}

/**
 * Keeps the list's read model (one row per question, and open/answered counts per project) in
 * step with the log, in the appending transaction. Set-based: the declarations of a batch are
 * one statement (view rows and counts together), its answers another, whatever the number of
 * questions and projects. Declarations go first, so a batch may hold a question's declaration and
 * its answer. The counts are bumped per project in project order, so two batches never deadlock
 * on them. `openq replay` rebuilds the same tables from the log set-based (`replay.ts`), and
 * `replay.int.spec.ts` checks that both agree row for row.
 */
export async function project(manager: EntityManager, batches: readonly ProjectEvents[]): Promise<void> {
  const declared: { projectId: string; position: string; data: QuestionDeclared }[] = [];
  const answered: { projectId: string; position: string; data: QuestionAnswered }[] = [];
  for (const { projectId, appended } of batches) {
    for (const { position, event } of appended) {
      if (event.type === 'question.declared')
        declared.push({ projectId, position, data: event.data as QuestionDeclared });
      else if (event.type === 'question.answered')
        answered.push({ projectId, position, data: event.data as QuestionAnswered });
    }
  }
  if (declared.length > 0) {
    await manager.query(
      `WITH inserted AS (
         INSERT INTO question_view (question_id, project_id, declared_position, status, declared, answered, last_position)
         SELECT q, p, pos, 'open', d, NULL, pos
           FROM unnest($1::uuid[], $2::text[], $3::bigint[], $4::jsonb[]) AS t(q, p, pos, d)
         ON CONFLICT (question_id) DO NOTHING
         RETURNING project_id)
       INSERT INTO question_counts (project_id, open, answered)
       SELECT project_id, count(*), 0 FROM inserted GROUP BY project_id ORDER BY project_id
       ON CONFLICT (project_id) DO UPDATE SET open = question_counts.open + EXCLUDED.open`,
      [
        declared.map((d) => d.data.questionId),
        declared.map((d) => d.projectId),
        declared.map((d) => d.position),
        declared.map((d) => JSON.stringify(d.data)),
      ],
    );
  }
  if (answered.length > 0) {
    await manager.query(
      `WITH updated AS (
         UPDATE question_view v SET status = 'answered', answered = t.a, last_position = t.pos
           FROM unnest($1::uuid[], $2::bigint[], $3::jsonb[]) AS t(q, pos, a)
          WHERE v.question_id = t.q AND v.status = 'open'
         RETURNING v.project_id)
       INSERT INTO question_counts (project_id, open, answered)
       SELECT project_id, -count(*), count(*) FROM updated GROUP BY project_id ORDER BY project_id
       ON CONFLICT (project_id) DO UPDATE
         SET open = question_counts.open + EXCLUDED.open, answered = question_counts.answered + EXCLUDED.answered`,
      [
        answered.map((a) => a.data.questionId),
        answered.map((a) => a.position),
        answered.map((a) => JSON.stringify(a.data)),
      ],
    );
  }
}
