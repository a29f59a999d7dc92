import type { EntityManager } from 'typeorm';
import {
  fold,
  newId,
  type DecisionRecorded,
  type DecisionSuperseded,
  type QuestionAnswered,
  type QuestionDeclared,
  type QuestionWithdrawn,
} from '@openq/contracts';
import type { WireEvent } from '@openq/messaging';
import { question, type Question, type QuestionEvent } from './domain/question';

/** An event as the log keeps it and the wire carries it: its type and its §3.1 payload. */
export type QuestionLogEvent =
  | { type: 'question.declared'; data: QuestionDeclared }
  | { type: 'question.answered'; data: QuestionAnswered }
  | { type: 'decision.recorded'; data: DecisionRecorded }
  | { type: 'question.withdrawn'; data: QuestionWithdrawn }
  | { type: 'decision.superseded'; data: DecisionSuperseded };

/** A question event on the wire, with the id it has in the log too (`Nats-Msg-Id` = log id). */
export type QuestionWireEvent = QuestionLogEvent & WireEvent & { eventId: string };

interface LogRow {
  position: string;
  event_id: string;
  project_id: string;
  type: QuestionLogEvent['type'];
  data: QuestionLogEvent['data'];
  recorded_at: Date;
}

export interface AppendedEvent {
  position: string;
  eventId: string;
  event: QuestionLogEvent;
}

/**
 * The questions slice's domain → wire map (docs/decider-kit.md): every question event is
 * published, with the payload the log stores. A decision keeps its `decisionEventId` as its id;
 * the others get a new one.
 */
export function questionToWire(event: QuestionEvent): QuestionWireEvent {
  const { occurredAt } = event;
  switch (event.type) {
    case 'question.declared':
      return { type: event.type, data: event.data.declared, occurredAt, eventId: newId() };
    case 'question.answered':
    case 'question.withdrawn':
    case 'decision.superseded':
      return { ...event, eventId: newId() };
    case 'decision.recorded':
      return { type: event.type, data: event.data, occurredAt, eventId: event.data.decisionEventId };
    default: {
      const unreachable: never = event;
      return unreachable;
    }
  }
}

/** The wire → domain map, for a row read back from the log (its project is a column there). */
function fromLog(row: LogRow): QuestionEvent {
  const occurredAt = new Date(row.recorded_at);
  const event = { type: row.type, data: row.data } as QuestionLogEvent;
  return event.type === 'question.declared'
    ? { type: event.type, data: { projectId: row.project_id, declared: event.data }, occurredAt }
    : { ...event, occurredAt };
}

/** Reads and appends the question log (the source of truth) inside a caller's transaction. */
export class QuestionLog {
  constructor(private readonly manager: EntityManager) {}

  async load(questionId: string): Promise<Question | null> {
    const rows: LogRow[] = await this.manager.query(
      `SELECT position, event_id, project_id, type, data, recorded_at FROM question_log WHERE question_id = $1 ORDER BY position`,
      [questionId],
    );
    return fold(question, rows.map(fromLog));
  }

  /** Serialises work on one question (answers) until the transaction ends. */
  async lockQuestion(questionId: string): Promise<void> {
    await this.manager.query(`SELECT pg_advisory_xact_lock(hashtext('question:' || $1))`, [questionId]);
  }

  /** The question declared under `toolCallId` in the project, folded from its rows, in one statement. */
  async loadByToolCall(projectId: string, toolCallId: string): Promise<Question | null> {
    const rows: LogRow[] = await this.manager.query(
      `SELECT position, event_id, project_id, type, data, recorded_at FROM question_log
        WHERE question_id = (SELECT question_id FROM question_log
                              WHERE project_id = $1 AND type = 'question.declared' AND data->>'toolCallId' = $2)
        ORDER BY position`,
      [projectId, toolCallId],
    );
    return fold(question, rows.map(fromLog));
  }

  /**
   * Appends a declaration, unless its `toolCallId` already has one in the project: then nothing is
   * written and null comes back. The log's unique index decides, in the one statement (a
   * concurrent declaration of the same key is waited for, and wins if it commits), so no lock and
   * no read come first.
   */
  async appendDeclaration(
    projectId: string,
    declared: Extract<QuestionWireEvent, { type: 'question.declared' }>,
  ): Promise<AppendedEvent | null> {
    const { eventId, data } = declared;
    const rows: { position: string }[] = await this.manager.query(
      `INSERT INTO question_log (event_id, project_id, question_id, type, data)
       VALUES ($1, $2, $3, 'question.declared', $4::jsonb)
       ON CONFLICT (project_id, (data->>'toolCallId'))
         WHERE type = 'question.declared' AND data->>'toolCallId' IS NOT NULL DO NOTHING
       RETURNING position`,
      [eventId, projectId, data.questionId, JSON.stringify(data)],
    );
    const row = rows[0];
    return row ? { position: row.position, eventId, event: { type: 'question.declared', data } } : null;
  }

  /**
   * Appends events of one question, each under its wire id, so the outbox publishes each with
   * `Nats-Msg-Id` equal to its log id.
   */
  async append(
    projectId: string,
    questionId: string,
    events: readonly QuestionWireEvent[],
  ): Promise<AppendedEvent[]> {
    const out: AppendedEvent[] = [];
    for (const { eventId, type, data } of events) {
      const [row]: { position: string }[] = await this.manager.query(
        `INSERT INTO question_log (event_id, project_id, question_id, type, data) VALUES ($1, $2, $3, $4, $5::jsonb) RETURNING position`,
        [eventId, projectId, questionId, type, JSON.stringify(data)],
      );
      out.push({ position: row!.position, eventId, event: { type, data } as QuestionLogEvent });
    }
    return out;
  }
}
