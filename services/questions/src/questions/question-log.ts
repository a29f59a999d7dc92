import type { EntityManager } from 'typeorm';
import { newId, type DecisionRecorded, type QuestionDeclared } from '@openq/contracts';
import { evolve, type Question, type QuestionLogEvent } from './domain/question';

interface LogRow {
  position: string;
  event_id: string;
  project_id: string;
  type: QuestionLogEvent['type'];
  data: QuestionLogEvent['data'];
}

export interface AppendedEvent {
  position: string;
  eventId: string;
  event: QuestionLogEvent;
}

/** Reads and appends the question log (the source of truth) inside a caller's transaction. */
export class QuestionLog {
  constructor(private readonly manager: EntityManager) {}

  async load(questionId: string): Promise<Question | null> {
    const rows: LogRow[] = await this.manager.query(
      `SELECT position, event_id, project_id, type, data FROM question_log WHERE question_id = $1 ORDER BY position`,
      [questionId],
    );
    return rows.reduce<Question | null>(
      (state, row) => evolve(state, row.project_id, { type: row.type, data: row.data } as QuestionLogEvent),
      null,
    );
  }

  /** Serialises work on one question (answers) until the transaction ends. */
  async lockQuestion(questionId: string): Promise<void> {
    await this.manager.query(`SELECT pg_advisory_xact_lock(hashtext('question:' || $1))`, [questionId]);
  }

  async findByToolCall(projectId: string, toolCallId: string): Promise<string | null> {
    const rows: { question_id: string }[] = await this.manager.query(
      `SELECT question_id FROM question_log WHERE project_id = $1 AND type = 'question.declared' AND data->>'toolCallId' = $2`,
      [projectId, toolCallId],
    );
    return rows[0]?.question_id ?? null;
  }

  /**
   * Appends a declaration, unless its `toolCallId` already has one in the project: then nothing is
   * written and null comes back. The log's unique index decides, in the one statement (a
   * concurrent declaration of the same key is waited for, and wins if it commits), so no lock and
   * no read come first.
   */
  async appendDeclaration(projectId: string, declared: QuestionDeclared): Promise<AppendedEvent | null> {
    const eventId = newId();
    const rows: { position: string }[] = await this.manager.query(
      `INSERT INTO question_log (event_id, project_id, question_id, type, data)
       VALUES ($1, $2, $3, 'question.declared', $4::jsonb)
       ON CONFLICT (project_id, (data->>'toolCallId'))
         WHERE type = 'question.declared' AND data->>'toolCallId' IS NOT NULL DO NOTHING
       RETURNING position`,
      [eventId, projectId, declared.questionId, JSON.stringify(declared)],
    );
    const row = rows[0];
    return row
      ? { position: row.position, eventId, event: { type: 'question.declared', data: declared } }
      : null;
  }

  /**
   * Appends events of one question. The event ids of the log are the event ids on the wire, so
   * the outbox publishes each with `Nats-Msg-Id` equal to its log id.
   */
  async append(projectId: string, questionId: string, events: QuestionLogEvent[]): Promise<AppendedEvent[]> {
    const out: AppendedEvent[] = [];
    for (const event of events) {
      const eventId =
        event.type === 'decision.recorded' ? (event.data as DecisionRecorded).decisionEventId : newId();
      const [row]: { position: string }[] = await this.manager.query(
        `INSERT INTO question_log (event_id, project_id, question_id, type, data) VALUES ($1, $2, $3, $4, $5::jsonb) RETURNING position`,
        [eventId, projectId, questionId, event.type, JSON.stringify(event.data)],
      );
      out.push({ position: row!.position, eventId, event });
    }
    return out;
  }
}
