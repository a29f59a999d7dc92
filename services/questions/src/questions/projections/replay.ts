import type { DataSource } from 'typeorm';
import type { AppendedEvent, QuestionLogEvent } from '../store/question-log.store';
import { project } from './question-view.projector';

export interface ReplayResult {
  questions: number;
  projects: number;
  position: string;
  ms: number;
}

/** How many log rows the rebuild reads and projects at a time. */
const CHUNK = 10_000;

/**
 * Drops the read model and rebuilds it from the log (the source of truth), in one transaction
 * that holds the view tables exclusively, so readers see the old or the new model, never half.
 * The log is read in order, a chunk at a time, and each chunk goes through the live projector
 * (`project`, question-view.projector.ts): the projection is written by one piece of code, and
 * each chunk is still a handful of set-based statements (one for its declarations, one for its
 * closings, one for its amendments, one per join or split). The view's secondary indexes (its
 * GIN indexes above all: search, declared, ask bands) are dropped for the rebuild and made again
 * once at the end, as a bulk load does; keeping them cost ~0.8 ms a row at 1 million events.
 * `replay.int.spec.ts` checks that the rebuilt model is the live one, row for row.
 */
export async function replayQuestionProjection(dataSource: DataSource): Promise<ReplayResult> {
  const started = Date.now();
  return dataSource.transaction(async (m) => {
    await m.query(`LOCK TABLE question_view, question_counts IN ACCESS EXCLUSIVE MODE`);
    // No new event may be appended while the rebuild reads the log.
    await m.query(`LOCK TABLE question_log IN SHARE MODE`);
    await m.query(`TRUNCATE question_view, question_counts`);
    // Every index not behind a constraint (the primary key stays: the projector upserts on it).
    const secondary: { name: string; definition: string }[] = await m.query(
      `SELECT i.relname AS name, pg_get_indexdef(x.indexrelid) AS definition
         FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid
        WHERE x.indrelid = 'question_view'::regclass
          AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = x.indexrelid)
        ORDER BY i.relname`,
    );
    for (const { name } of secondary) await m.query(`DROP INDEX "${name.replace(/"/g, '""')}"`);
    for (let after = '0'; ;) {
      const rows: {
        position: string;
        event_id: string;
        project_id: string;
        type: QuestionLogEvent['type'];
        data: QuestionLogEvent['data'];
      }[] = await m.query(
        // Ordered by the column (the text alias would sort "10" before "9").
        `SELECT l.position::text AS position, l.event_id, l.project_id, l.type, l.data FROM question_log l
          WHERE l.position > $1::bigint ORDER BY l.position LIMIT ${CHUNK}`,
        [after],
      );
      if (rows.length === 0) break;
      await project(
        m,
        rows.map((r) => ({
          projectId: r.project_id,
          appended: [
            {
              position: r.position,
              eventId: r.event_id,
              event: { type: r.type, data: r.data } as QuestionLogEvent,
            } satisfies AppendedEvent,
          ],
        })),
      );
      after = rows[rows.length - 1]!.position;
    }
    for (const { definition } of secondary) await m.query(definition);
    const [stats] = await m.query(
      `SELECT (SELECT count(*) FROM question_view)::int AS questions,
              (SELECT count(*) FROM question_counts)::int AS projects,
              COALESCE((SELECT max(position) FROM question_log), 0)::text AS position`,
    );
    await m.query(
      `INSERT INTO projection_state (name, position, rebuilt_at) VALUES ('question_view', $1, now())
       ON CONFLICT (name) DO UPDATE SET position = EXCLUDED.position, rebuilt_at = now()`,
      [stats.position],
    );
    return {
      questions: stats.questions,
      projects: stats.projects,
      position: stats.position,
      ms: Date.now() - started,
    };
  });
}
