import type { DataSource } from 'typeorm';
import { askBands, askKey } from '../domain/same-question';

export interface ReplayResult {
  questions: number;
  projects: number;
  position: string;
  ms: number;
}

/**
 * Drops the read model and rebuilds it from the log (the source of truth), in one transaction
 * that holds the view tables exclusively, so readers see the old or the new model, never half.
 * Set-based, so it stays fast at millions of events; the live projector and this rebuild must
 * agree row for row — `replay.int.spec.ts` checks exactly that.
 */
export async function replayQuestionProjection(dataSource: DataSource): Promise<ReplayResult> {
  const started = Date.now();
  return dataSource.transaction(async (m) => {
    await m.query(`LOCK TABLE question_view, question_counts IN ACCESS EXCLUSIVE MODE`);
    // No new event may be appended while the rebuild reads the log.
    await m.query(`LOCK TABLE question_log IN SHARE MODE`);
    await m.query(`TRUNCATE question_view, question_counts`);
    await m.query(`
      INSERT INTO question_view (question_id, project_id, declared_position, status, declared, answered,
                                 withdrawn, amended, last_position)
      SELECT d.question_id, d.project_id, d.position,
             CASE WHEN a.position IS NOT NULL THEN 'answered' WHEN w.position IS NOT NULL THEN 'withdrawn' ELSE 'open' END,
             d.data, a.data, w.data, CASE WHEN a.position IS NOT NULL THEN s.data END,
             COALESCE(CASE WHEN a.position IS NOT NULL THEN s.position END, a.position, w.position, d.position)
        FROM question_log d
        LEFT JOIN question_log a ON a.question_id = d.question_id AND a.type = 'question.answered'
        LEFT JOIN question_log w ON w.question_id = d.question_id AND w.type = 'question.withdrawn'
        LEFT JOIN question_log s ON s.question_id = d.question_id AND s.type = 'decision.superseded'
       WHERE d.type = 'question.declared'`);
    // §12.3 the askers that joined and were not split off, in log order.
    await m.query(`
      UPDATE question_view v SET askers = j.askers
        FROM (SELECT jn.question_id, jsonb_agg(jn.data->'asker' ORDER BY jn.position) AS askers
                FROM question_log jn
               WHERE jn.type = 'question.joined'
                 AND NOT EXISTS (SELECT 1 FROM question_log sp
                                  WHERE sp.type = 'question.split' AND sp.question_id = jn.question_id
                                    AND sp.data->>'toolCallId' = jn.data->'asker'->>'toolCallId')
               GROUP BY jn.question_id) AS j
       WHERE v.question_id = j.question_id`);
    // The match keys, folded by the projector's own function, a chunk at a time.
    for (let after = ''; ;) {
      const rows: { id: string; project: string; pergunta: string }[] = await m.query(
        `SELECT question_id::text AS id, project_id AS project, declared->>'pergunta' AS pergunta FROM question_view
          WHERE question_id::text > $1 ORDER BY question_id::text LIMIT 10000`,
        [after],
      );
      if (rows.length === 0) break;
      await m.query(
        `UPDATE question_view v SET ask_key = t.k, ask_bands = ARRAY(SELECT jsonb_array_elements_text(t.b))
           FROM unnest($1::uuid[], $2::text[], $3::jsonb[]) AS t(id, k, b) WHERE v.question_id = t.id`,
        [
          rows.map((r) => r.id),
          rows.map((r) => askKey(r.pergunta)),
          rows.map((r) => JSON.stringify(askBands(r.project, askKey(r.pergunta)))),
        ],
      );
      after = rows[rows.length - 1]!.id;
    }
    await m.query(`
      INSERT INTO question_counts (project_id, open, answered, withdrawn)
      SELECT project_id, count(*) FILTER (WHERE status = 'open'), count(*) FILTER (WHERE status = 'answered'),
             count(*) FILTER (WHERE status = 'withdrawn')
        FROM question_view GROUP BY project_id`);
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
