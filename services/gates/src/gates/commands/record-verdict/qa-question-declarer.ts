import { createHash } from 'node:crypto';
import { TOOL_CALL_ID_MAX_LENGTH, type Refusal } from '@openq/contracts';
import type { GateName, QuestionRequest } from '../../domain/gate-cycle';
import type { QuestionDeclarer } from '../../adapters/question-declarer';

export interface VerdictOrigin {
  taskId: string;
  gate: GateName;
  /** QA's session, where the question is born. */
  sessionId: string;
  correlationId: string;
}

/**
 * The idempotency key of a QA question: one per (task, gate, round, subspecialty), so a retried
 * verdict gets back the question it declared before. Hashed when it would exceed the limit.
 */
export function qaToolCallId(taskId: string, gate: GateName, key: string): string {
  const id = `qa:${taskId}:${gate}:${key}`;
  if (id.length <= TOOL_CALL_ID_MAX_LENGTH) return id;
  return `qa:sha256:${createHash('sha256').update(id).digest('hex')}`;
}

/**
 * Records the questions of a `needs_user_decision` round in the question log: all or nothing
 * (the ids of the round's new questions, in order, or the refusal). Throws `RetryLaterError`
 * when the questions service fails (the message is retried).
 */
export function declareQaQuestions(
  declarer: QuestionDeclarer,
  projectId: string,
  origin: VerdictOrigin,
  request: QuestionRequest,
): Promise<string[] | Refusal> {
  const { sessionAuthorId, role, affects } = request;
  const questions = request.declare.map((q) => ({
    toolCallId: qaToolCallId(origin.taskId, origin.gate, q.key),
    question: q.question,
    suggestion: q.suggestion,
  }));
  return declarer.declare(
    projectId,
    { sessionId: origin.sessionId, sessionAuthorId, role, origin: request.origin, affects, questions },
    { correlationId: origin.correlationId, onRefused: 'stop' },
  );
}
