import type { EntityManager } from 'typeorm';
import {
  affectsFromWire,
  affectsToWire,
  fold,
  type DecisionRecorded,
  type DecisionSuperseded,
  type Precedent as PrecedentWire,
  type QuestionAnswered,
  type QuestionAsker,
  type QuestionDeclared,
  type QuestionJoined,
  type QuestionPrecedentOffered,
  type QuestionSplit,
  type QuestionWithdrawn,
} from '@openq/contracts';
import type { WireEvent } from '@openq/messaging';
import {
  question,
  type Answer,
  type Declaration,
  type DecisionRecord,
  type Question,
  type QuestionEvent,
  type Supersession,
  type Withdrawal,
} from '../domain/question';
import type { Asker, Join, Precedent, PrecedentOffer } from '../domain/ask-once';
import { sendAheadOfNext } from '@openq/persistence';

/** An event as the log keeps it and the wire carries it: its type and its §3.1 payload. */
export type QuestionLogEvent =
  | { type: 'question.declared'; data: QuestionDeclared }
  | { type: 'question.answered'; data: QuestionAnswered }
  | { type: 'decision.recorded'; data: DecisionRecorded }
  | { type: 'question.withdrawn'; data: QuestionWithdrawn }
  | { type: 'decision.superseded'; data: DecisionSuperseded }
  | { type: 'question.joined'; data: QuestionJoined }
  | { type: 'question.precedent_offered'; data: QuestionPrecedentOffered }
  | { type: 'question.split'; data: QuestionSplit };

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
  /**
   * Its place in the log; null when it was not read back (`append` sends the insert ahead): a
   * statement later in the same transaction reads it from the log by `eventId`.
   */
  position: string | null;
  eventId: string;
  event: QuestionLogEvent;
}

/** The wire → domain map, for a row read back from the log (its project is a column there). */
function fromLog(row: LogRow): QuestionEvent {
  const occurredAt = new Date(row.recorded_at);
  const event = { type: row.type, data: row.data } as QuestionLogEvent;
  switch (event.type) {
    case 'question.declared':
      return {
        type: event.type,
        data: { projectId: row.project_id, declared: declarationFromWire(event.data) },
        occurredAt,
      };
    case 'question.answered':
      return { type: event.type, data: answerFromWire(event.data), occurredAt };
    case 'decision.recorded':
      return { type: event.type, data: decisionFromWire(event.data), occurredAt };
    case 'question.withdrawn':
      return { type: event.type, data: withdrawalFromWire(event.data), occurredAt };
    case 'decision.superseded':
      return { type: event.type, data: supersessionFromWire(event.data), occurredAt };
    case 'question.joined':
      return { type: event.type, data: joinFromWire(event.data), occurredAt };
    case 'question.precedent_offered':
      return { type: event.type, data: precedentOfferFromWire(event.data), occurredAt };
    default:
      return { ...event, occurredAt };
  }
}

const LOG_COLUMNS = `position, event_id, project_id, question_id, type, data, recorded_at`;

/** One declaration to append: its wire event and its project. */
export interface DeclarationToAppend {
  projectId: string;
  declared: Extract<QuestionWireEvent, { type: 'question.declared' }>;
}

/** Events of one question to append, each under its wire id. */
export interface EventsToAppend {
  projectId: string;
  questionId: string;
  events: readonly QuestionWireEvent[];
}

/** The key of a declaration's tool call in the project. */
export const toolCallKey = (projectId: string, toolCallId: string): string =>
  `${projectId}\u0000${toolCallId}`;

/**
 * Reads and appends the question log (the source of truth) inside a caller's transaction. Every
 * read and write takes a set (a group commit's questions, or one of them): one statement for the
 * group.
 */
export class QuestionLog {
  constructor(private readonly manager: EntityManager) {}

  async load(questionId: string): Promise<Question | null> {
    return (await this.loadMany([questionId])).get(questionId) ?? null;
  }

  /** The questions with these ids, folded from their rows, in one statement (an unknown id: absent). */
  async loadMany(questionIds: readonly string[]): Promise<Map<string, Question | null>> {
    const rows: (LogRow & { question_id: string })[] = await this.manager.query(
      `SELECT ${LOG_COLUMNS} FROM question_log WHERE question_id = ANY($1::uuid[]) ORDER BY question_id, position`,
      [[...new Set(questionIds)]],
    );
    return foldByQuestion(rows);
  }

  /**
   * Serialises work on these questions (answers) until the transaction ends, in one statement.
   * The locks are taken in one order (by key), so two groups sharing questions never deadlock.
   */
  async lockQuestions(questionIds: readonly string[]): Promise<void> {
    await sendAheadOfNext(
      this.manager,
      `SELECT count(pg_advisory_xact_lock(k)) FROM (
         SELECT DISTINCT hashtext('question:' || id) AS k FROM unnest($1::text[]) AS id ORDER BY k) AS keys`,
      [[...new Set(questionIds)]],
    );
  }

  /** The questions declared under these tool calls, by `toolCallKey`, folded from their rows, in one statement. */
  async loadByToolCalls(
    calls: readonly { projectId: string; toolCallId: string }[],
  ): Promise<Map<string, Question>> {
    const rows: (LogRow & { question_id: string })[] = await this.manager.query(
      `SELECT ${LOG_COLUMNS} FROM question_log
        WHERE question_id IN (SELECT d.question_id FROM question_log d
                               JOIN unnest($1::text[], $2::text[]) AS c(project_id, tool_call_id)
                                 ON d.project_id = c.project_id AND d.data->>'toolCallId' = c.tool_call_id
                              WHERE d.type = 'question.declared')
        ORDER BY question_id, position`,
      [calls.map((c) => c.projectId), calls.map((c) => c.toolCallId)],
    );
    const byKey = new Map<string, Question>();
    for (const q of foldByQuestion(rows).values()) {
      if (q?.declared.toolCallId) byKey.set(toolCallKey(q.projectId, q.declared.toolCallId), q);
    }
    return byKey;
  }

  /**
   * Appends declarations, in one statement, except those whose `toolCallId` already has one in
   * the project (or comes earlier in the same list): those write nothing and come back as null.
   * The log's unique index decides (a concurrent declaration of the same key is waited for, and
   * wins if it commits), so no lock and no read come first. Rows go in (project, toolCallId)
   * order, so two groups sharing keys wait for each other instead of deadlocking.
   */
  async appendDeclarations(declarations: readonly DeclarationToAppend[]): Promise<(AppendedEvent | null)[]> {
    if (declarations.length === 0) return [];
    const rows: { event_id: string; position: string }[] = await this.manager.query(
      `INSERT INTO question_log (event_id, project_id, question_id, type, data)
       SELECT e, p, q, 'question.declared', d
         FROM unnest($1::uuid[], $2::text[], $3::uuid[], $4::jsonb[]) WITH ORDINALITY AS t(e, p, q, d, o)
        ORDER BY p, d->>'toolCallId', o
       ON CONFLICT (project_id, (data->>'toolCallId'))
         WHERE type = 'question.declared' AND data->>'toolCallId' IS NOT NULL DO NOTHING
       RETURNING event_id, position`,
      [
        declarations.map((d) => d.declared.eventId),
        declarations.map((d) => d.projectId),
        declarations.map((d) => d.declared.data.questionId),
        declarations.map((d) => JSON.stringify(d.declared.data)),
      ],
    );
    const positions = new Map(rows.map((r) => [r.event_id, r.position]));
    return declarations.map(({ declared: { eventId, data } }) => {
      const position = positions.get(eventId);
      return position ? { position, eventId, event: { type: 'question.declared', data } } : null;
    });
  }

  /**
   * Appends events of several questions in one statement, each under its wire id (so the outbox
   * publishes each with `Nats-Msg-Id` equal to its log id), in the order given. Nothing reads what
   * it returns before commit — the questions are locked, and their positions are read from the log
   * by the projection's statement behind it — so it is sent ahead (`sendAheadOfNext`): it costs the
   * transaction no round trip of its own, and its failure fails the statement behind it.
   */
  async append(batches: readonly EventsToAppend[]): Promise<AppendedEvent[][]> {
    const flat = batches.flatMap((b) => b.events.map((e) => ({ ...b, e })));
    if (flat.length === 0) return batches.map(() => []);
    await sendAheadOfNext(
      this.manager,
      `INSERT INTO question_log (event_id, project_id, question_id, type, data)
       SELECT e, p, q, ty, d
         FROM unnest($1::uuid[], $2::text[], $3::uuid[], $4::text[], $5::jsonb[]) WITH ORDINALITY AS t(e, p, q, ty, d, o)
        ORDER BY o`,
      [
        flat.map((f) => f.e.eventId),
        flat.map((f) => f.projectId),
        flat.map((f) => f.questionId),
        flat.map((f) => f.e.type),
        flat.map((f) => JSON.stringify(f.e.data)),
      ],
    );
    return batches.map((b) =>
      b.events.map(({ eventId, type, data }) => ({
        position: null,
        eventId,
        event: { type, data } as QuestionLogEvent,
      })),
    );
  }
}

/** Folds rows ordered by (question, position) into one question per id. */
function foldByQuestion(rows: readonly (LogRow & { question_id: string })[]): Map<string, Question | null> {
  const events = new Map<string, QuestionEvent[]>();
  for (const row of rows) {
    const list = events.get(row.question_id) ?? [];
    list.push(fromLog(row));
    events.set(row.question_id, list);
  }
  return new Map([...events].map(([id, list]) => [id, fold(question, list)]));
}

/** §11.5 a withdrawal as the wire says it (`motivo`), in the domain's words. */
export function withdrawalFromWire({ questionId, by, motivo, withdrawnAt }: QuestionWithdrawn): Withdrawal {
  return { questionId, by, reason: motivo, withdrawnAt };
}

/** §11.5 a withdrawal in the wire's words (the payload of `question.withdrawn`, the replies). */
export function withdrawalToWire({ questionId, by, reason, withdrawnAt }: Withdrawal): QuestionWithdrawn {
  return { questionId, by, motivo: reason, withdrawnAt };
}

/** §11.5 an amendment as the wire says it (`resposta`, `supersededViaAgente`), in the domain's words. */
export function supersessionFromWire(wire: DecisionSuperseded): Supersession {
  const { questionId, supersededDecisionEventId, supersededViaAgente, decisionEventId, resposta, by } = wire;
  return {
    questionId,
    supersededDecisionEventId,
    supersededAgentRole: supersededViaAgente,
    decisionEventId,
    answer: resposta,
    by,
    supersededAt: wire.supersededAt,
  };
}

/** §11.5 an amendment in the wire's words (the payload of `decision.superseded`, the replies). */
export function supersessionToWire(domain: Supersession): DecisionSuperseded {
  const { questionId, supersededDecisionEventId, supersededAgentRole, decisionEventId, answer, by } = domain;
  return {
    questionId,
    supersededDecisionEventId,
    supersededViaAgente: supersededAgentRole,
    decisionEventId,
    resposta: answer,
    by,
    supersededAt: domain.supersededAt,
  };
}

/** An answer as the wire says it, in the domain's words (optional fields kept only when present). */
export function answerFromWire(wire: QuestionAnswered): Answer {
  return {
    questionId: wire.questionId,
    answer: wire.resposta,
    acceptedSuggestion: wire.aceitouSugestao,
    decisionEventId: wire.decisionEventId,
    answeredFor: wire.respondidaPor,
    agentRole: wire.viaAgente,
    ...('agentSessionId' in wire ? { agentSessionId: wire.agentSessionId } : {}),
    ...('answeredBy' in wire ? { answeredBy: wire.answeredBy } : {}),
    ...('grantId' in wire ? { grantId: wire.grantId } : {}),
    answeredAt: wire.answeredAt,
  };
}

/** An answer in the wire's words (the payload of `question.answered`, the replies), keys in the payload's order. */
export function answerToWire(answer: Answer): QuestionAnswered {
  return {
    questionId: answer.questionId,
    resposta: answer.answer,
    aceitouSugestao: answer.acceptedSuggestion,
    decisionEventId: answer.decisionEventId,
    respondidaPor: answer.answeredFor,
    viaAgente: answer.agentRole,
    ...('agentSessionId' in answer ? { agentSessionId: answer.agentSessionId } : {}),
    ...('answeredBy' in answer ? { answeredBy: answer.answeredBy } : {}),
    ...('grantId' in answer ? { grantId: answer.grantId } : {}),
    answeredAt: answer.answeredAt,
  };
}

/** A decision record as the wire says it (`viaAgente`), in the domain's words. */
export function decisionFromWire(wire: DecisionRecorded): DecisionRecord {
  return {
    decisionEventId: wire.decisionEventId,
    actor: wire.actor,
    context: wire.context,
    choice: wire.choice,
    consequences: affectsFromWire(wire.consequences),
    questionId: wire.questionId,
    agentRole: wire.viaAgente,
    ...('agentSessionId' in wire ? { agentSessionId: wire.agentSessionId } : {}),
    ...('answeredBy' in wire ? { answeredBy: wire.answeredBy } : {}),
    ...('grantId' in wire ? { grantId: wire.grantId } : {}),
    decidedAt: wire.decidedAt,
  };
}

/** A decision record in the wire's words (the payload of `decision.recorded`), keys in the payload's order. */
export function decisionToWire(decision: DecisionRecord): DecisionRecorded {
  return {
    decisionEventId: decision.decisionEventId,
    actor: decision.actor,
    context: decision.context,
    choice: decision.choice,
    consequences: affectsToWire(decision.consequences),
    questionId: decision.questionId,
    viaAgente: decision.agentRole,
    ...('agentSessionId' in decision ? { agentSessionId: decision.agentSessionId } : {}),
    ...('answeredBy' in decision ? { answeredBy: decision.answeredBy } : {}),
    ...('grantId' in decision ? { grantId: decision.grantId } : {}),
    decidedAt: decision.decidedAt,
  };
}

/** A declaration as the wire says it, in the domain's words (§12.3 `precedentOf`/`motivo` only when present). */
export function declarationFromWire(wire: QuestionDeclared): Declaration {
  // Assigned, not spread: the list maps every row of a page with it (docs/performance.md).
  const declared: Declaration = {
    questionId: wire.questionId,
    sessionId: wire.sessionId,
    sessionAuthorId: wire.sessionAuthorId,
    askedBy: wire.autor,
    question: wire.pergunta,
    suggestion: wire.sugestao,
    affects: affectsFromWire(wire.afeta),
    origin: wire.origin,
    toolCallId: wire.toolCallId,
    declaredAt: wire.declaredAt,
  };
  if ('precedentOf' in wire) declared.precedentOf = wire.precedentOf;
  if ('motivo' in wire) declared.reason = wire.motivo;
  return declared;
}

/** A declaration in the wire's words (the payload of `question.declared`), keys in the payload's order. */
export function declarationToWire(declared: Declaration): QuestionDeclared {
  return {
    questionId: declared.questionId,
    sessionId: declared.sessionId,
    sessionAuthorId: declared.sessionAuthorId,
    autor: declared.askedBy,
    pergunta: declared.question,
    sugestao: declared.suggestion,
    afeta: affectsToWire(declared.affects),
    origin: declared.origin,
    toolCallId: declared.toolCallId,
    declaredAt: declared.declaredAt,
    ...('precedentOf' in declared ? { precedentOf: declared.precedentOf } : {}),
    ...('reason' in declared ? { motivo: declared.reason } : {}),
  };
}

/** §12.3 an asker as the wire says it (`autor`), in the domain's words. */
export function askerFromWire({ autor, sessionId, toolCallId }: QuestionAsker): Asker {
  return { role: autor, sessionId, toolCallId };
}

/** §12.3 an asker in the wire's words. */
export function askerToWire({ role, sessionId, toolCallId }: Asker): QuestionAsker {
  return { autor: role, sessionId, toolCallId };
}

/** §12.3 a join as the wire says it (`question.joined`), in the domain's words. */
export function joinFromWire(wire: QuestionJoined): Join {
  const { asked } = wire;
  return {
    questionId: wire.questionId,
    asker: askerFromWire(wire.asker),
    similarity: wire.similarity,
    asked: {
      sessionAuthorId: asked.sessionAuthorId,
      question: asked.pergunta,
      suggestion: asked.sugestao,
      affects: affectsFromWire(asked.afeta),
    },
    joinedAt: wire.joinedAt,
  };
}

/** §12.3 a join in the wire's words (the payload of `question.joined`), keys in the payload's order. */
export function joinToWire(join: Join): QuestionJoined {
  const { asked } = join;
  return {
    questionId: join.questionId,
    asker: askerToWire(join.asker),
    similarity: join.similarity,
    asked: {
      sessionAuthorId: asked.sessionAuthorId,
      pergunta: asked.question,
      sugestao: asked.suggestion,
      afeta: affectsToWire(asked.affects),
    },
    joinedAt: join.joinedAt,
  };
}

/** §12.3 a precedent offered, as the wire says it (`question.precedent_offered`), in the domain's words. */
export function precedentOfferFromWire(wire: QuestionPrecedentOffered): PrecedentOffer {
  const { questionId, asker, decisionEventId, similarity, offeredAt } = wire;
  return { questionId, asker: askerFromWire(asker), decisionEventId, similarity, offeredAt };
}

/** §12.3 a precedent offered, in the wire's words, keys in the payload's order. */
export function precedentOfferToWire(offer: PrecedentOffer): QuestionPrecedentOffered {
  const { questionId, asker, decisionEventId, similarity, offeredAt } = offer;
  return { questionId, asker: askerToWire(asker), decisionEventId, similarity, offeredAt };
}

/** §12.3 the decision that stands, in the wire's words (`pergunta`, `resposta`: the replies, the list). */
export function precedentToWire({
  questionId,
  decisionEventId,
  question,
  answer,
  decidedAt,
}: Precedent): PrecedentWire {
  return { questionId, decisionEventId, pergunta: question, resposta: answer, decidedAt };
}
