import { createHash } from 'node:crypto';
import { HttpException } from '@nestjs/common';
import { QuestionsCommand, type AcceptSuggestionResult, type AcceptSuggestionsReply } from '@openq/contracts';
import type { RpcHeaders } from '../http/rpc-headers.decorator';
import type { ServicesClient } from '../http/services-client';

/**
 * [openq] issue #18 the `Idempotency-Key` of one question of a bulk accept: derived from the
 * request's key and the question, so a retried batch (same key) replays each item's first answer,
 * and no two items share a key (the questions service ties a key to one question).
 */
export function itemIdempotencyKey(requestKey: string, questionId: string): string {
  return `bulk-${createHash('sha256').update(`${requestKey}\n${questionId}`).digest('hex')}`;
}

/** A refusal of the single-answer path as one item's result. */
function resultOfError(questionId: string, error: unknown): AcceptSuggestionResult {
  if (!(error instanceof HttpException)) throw error;
  const body = error.getResponse() as { reason?: unknown; message?: unknown };
  const reason = typeof body.reason === 'string' ? body.reason : 'erro_desconhecido';
  const message = typeof body.message === 'string' ? body.message : error.message;
  return {
    questionId,
    status: reason === 'pergunta_ja_respondida' ? 'already_answered' : 'refused',
    reason,
    message,
  };
}

/**
 * "Accept N suggestions": each question goes through the very answer a click on "Accept
 * suggestion" sends (`QuestionsCommand.answer` with `aceitarSugestao: true`), so the author rule,
 * `sem_sugestao`, withdrawn, already answered and the per-key replay are the questions service's,
 * written once. The items are asked together (the service commits answers arriving together in
 * one group); each gets its own result, in the order asked — a partial success is a 200 that says so.
 */
export async function acceptSuggestions(
  services: ServicesClient,
  request: { projectId: string; userId: string; questionIds: readonly string[]; idempotencyKey?: string },
  headers: RpcHeaders,
): Promise<AcceptSuggestionsReply> {
  const { projectId, userId, idempotencyKey } = request;
  const results = await Promise.all(
    request.questionIds.map(async (questionId): Promise<AcceptSuggestionResult> => {
      const key = idempotencyKey ? { idempotencyKey: itemIdempotencyKey(idempotencyKey, questionId) } : {};
      try {
        const reply = await services.ask(
          QuestionsCommand.answer,
          { projectId, questionId, userId, aceitarSugestao: true, ...key },
          headers,
        );
        return { questionId, status: 'answered', decisionEventId: reply.decisionEventId };
      } catch (error) {
        return resultOfError(questionId, error);
      }
    }),
  );
  return { results };
}
