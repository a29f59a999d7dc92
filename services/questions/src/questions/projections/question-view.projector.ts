import type { EntityManager } from 'typeorm';
import type {
  DecisionSuperseded,
  QuestionAnswered,
  QuestionDeclared,
  QuestionWithdrawn,
} from '@openq/contracts';
import { sendAheadOfNext } from '@openq/persistence';
import type { AppendedEvent } from '../store/question-log.store';
import { askBands, askKey } from '../domain/same-question';

/** Appended events of one project (a group commit projects several projects at once). */
export interface ProjectEvents {
  projectId: string;
  appended: readonly AppendedEvent[];
}

/**
 * Where an event is in the log: its position when the caller read it back, else its id — the
 * statement reads the position from the log (`positionOf`), where the transaction appended it.
 */
type LogPlace = Pick<AppendedEvent, 'position' | 'eventId'>;

/**
 * An event's position in a projection statement: `pos`, or the log row of `event` (the unique
 * index on `event_id`) when the caller did not read it back (`QuestionLog.append` sends its insert
 * ahead, so the statement that needs the position is the one that reads it).
 */
const positionOf = (pos: string, event: string) =>
  `COALESCE(${pos}, (SELECT l.position FROM question_log l WHERE l.event_id = ${event}))`;

/** A question leaving `open`: answered or withdrawn, with its payload and place in the log. */
interface Closing extends LogPlace {
  projectId: string;
  status: 'answered' | 'withdrawn';
  data: QuestionAnswered | QuestionWithdrawn;
}

/**
 * Keeps the list's read model (one row per question, and open/answered/withdrawn counts per
 * project) in step with the log, in the appending transaction. Set-based: the declarations of a
 * batch are one statement (view rows and counts together), its closings — answers and
 * withdrawals — another, its amendments (§11.5 `decision.superseded`) a third, whatever the number
 * of questions and projects. Declarations go first, then closings, then amendments, so a batch may
 * hold a question's declaration, its answer and the amendment of that answer. Each statement bumps the counts per
 * project in project order, and answers and withdrawals share one statement, so a batch touches
 * each count row once per statement in one order and two batches never deadlock on them.
 * Every statement here is a write nobody reads the result of: each is sent ahead of the next
 * (`sendAheadOfNext`), in order, so the projection costs the transaction no round trip of its own.
 * `openq replay` rebuilds the same tables by running this projector over the log, in order
 * (`replay.ts`), and `replay.int.spec.ts` checks that the rebuild and the live model agree row for row.
 */
export async function project(manager: EntityManager, batches: readonly ProjectEvents[]): Promise<void> {
  const declared: (LogPlace & { projectId: string; data: QuestionDeclared })[] = [];
  const closed: Closing[] = [];
  const superseded: (LogPlace & { data: DecisionSuperseded })[] = [];
  // §12.3 askers joining (+1) and split off (-1), in log order.
  const askers: { questionId: string; asker: unknown; toolCallId: string | null }[] = [];
  for (const { projectId, appended } of batches) {
    for (const { position, eventId, event } of appended) {
      if (event.type === 'question.declared')
        declared.push({ projectId, position, eventId, data: event.data });
      else if (event.type === 'question.answered')
        closed.push({ projectId, position, eventId, status: 'answered', data: event.data });
      else if (event.type === 'question.withdrawn')
        closed.push({ projectId, position, eventId, status: 'withdrawn', data: event.data });
      else if (event.type === 'decision.superseded') superseded.push({ position, eventId, data: event.data });
      else if (event.type === 'question.joined')
        askers.push({ questionId: event.data.questionId, asker: event.data.asker, toolCallId: null });
      else if (event.type === 'question.split')
        askers.push({
          questionId: event.data.questionId,
          asker: null,
          toolCallId: event.data.toolCallId,
        });
    }
  }
  if (declared.length > 0) {
    const keys = declared.map((d) => askKey(d.data.pergunta));
    await sendAheadOfNext(
      manager,
      `WITH inserted AS (
         INSERT INTO question_view (question_id, project_id, declared_position, status, declared, answered, last_position,
                                    ask_key, ask_bands)
         SELECT q, p, x.at, 'open', d, NULL, x.at, k, ARRAY(SELECT jsonb_array_elements_text(b))
           FROM unnest($1::uuid[], $2::text[], $3::bigint[], $4::jsonb[], $5::text[], $6::jsonb[], $7::uuid[])
                  AS t(q, p, pos, d, k, b, e),
                LATERAL (SELECT ${positionOf('t.pos', 't.e')} AS at) x
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
        keys,
        declared.map((d, i) => JSON.stringify(askBands(d.projectId, keys[i]!))),
        declared.map((d) => d.eventId),
      ],
    );
  }
  // One statement per change, in log order: a batch seldom holds more than one join (§12.3).
  for (const change of askers) {
    await sendAheadOfNext(
      manager,
      change.asker
        ? `UPDATE question_view SET askers = askers || jsonb_build_array($2::jsonb) WHERE question_id = $1`
        : `UPDATE question_view
              SET askers = COALESCE((SELECT jsonb_agg(a ORDER BY o) FROM jsonb_array_elements(askers) WITH ORDINALITY AS x(a, o)
                                      WHERE a->>'toolCallId' IS DISTINCT FROM $2::text), '[]'::jsonb)
            WHERE question_id = $1`,
      [change.questionId, change.asker ? JSON.stringify(change.asker) : change.toolCallId],
    );
  }
  if (closed.length > 0) {
    // Only an open row closes: a question is answered or withdrawn once (the log's
    // `question_log_one_closing` index), so a replayed event changes nothing here either.
    await sendAheadOfNext(
      manager,
      `WITH updated AS (
         UPDATE question_view v
            SET status = t.s,
                answered = CASE WHEN t.s = 'answered' THEN t.d ELSE v.answered END,
                withdrawn = CASE WHEN t.s = 'withdrawn' THEN t.d ELSE v.withdrawn END,
                last_position = ${positionOf('t.pos', 't.e')}
           FROM unnest($1::uuid[], $2::bigint[], $3::text[], $4::jsonb[], $5::uuid[]) AS t(q, pos, s, d, e)
          WHERE v.question_id = t.q AND v.status = 'open'
         RETURNING v.project_id, t.s)
       INSERT INTO question_counts (project_id, open, answered, withdrawn)
       SELECT project_id, -count(*), count(*) FILTER (WHERE s = 'answered'), count(*) FILTER (WHERE s = 'withdrawn')
         FROM updated GROUP BY project_id ORDER BY project_id
       ON CONFLICT (project_id) DO UPDATE
         SET open = question_counts.open + EXCLUDED.open,
             answered = question_counts.answered + EXCLUDED.answered,
             withdrawn = question_counts.withdrawn + EXCLUDED.withdrawn`,
      [
        closed.map((c) => c.data.questionId),
        closed.map((c) => c.position),
        closed.map((c) => c.status),
        closed.map((c) => JSON.stringify(c.data)),
        closed.map((c) => c.eventId),
      ],
    );
  }
  if (superseded.length > 0) {
    // §11.5 the session author's decision stands over the agent's; the counts do not move. Only an
    // answered, not yet amended row takes it (the log's one-decision index allows one amendment).
    await sendAheadOfNext(
      manager,
      `UPDATE question_view v
          SET amended = t.d, last_position = ${positionOf('t.pos', 't.e')}
         FROM unnest($1::uuid[], $2::bigint[], $3::jsonb[], $4::uuid[]) AS t(q, pos, d, e)
        WHERE v.question_id = t.q AND v.status = 'answered' AND v.amended IS NULL`,
      [
        superseded.map((s) => s.data.questionId),
        superseded.map((s) => s.position),
        superseded.map((s) => JSON.stringify(s.data)),
        superseded.map((s) => s.eventId),
      ],
    );
  }
}
