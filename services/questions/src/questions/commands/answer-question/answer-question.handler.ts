import type { EntityManager } from 'typeorm';
import { isRefusal, newId, type Refusal } from '@openq/contracts';
import type { OutboxWriter } from '@openq/messaging';
import { answerOutcome, type AnswerCommand, type AnswerOutcome } from '../../domain/question';
import { QuestionLog } from '../../question-log';
import { questionTransaction } from '../../question-transaction';
import {
  answerFingerprint,
  answerKeyOf,
  answerKeyReused,
  rememberAnswerKeys,
  seenAnswerKeys,
  type AnswerKey,
} from './answer-with-key';

export type AnswerDecision = AnswerOutcome | Refusal;

/** One answer to record: a click (maybe with its `Idempotency-Key`) or an agent's, and its outbox. */
export type AnswerRequest = {
  projectId: string;
  questionId: string;
  outbox: OutboxWriter;
} & (
  | { command: Extract<AnswerCommand, { by: 'user' }>; idempotencyKey?: string }
  | { command: Extract<AnswerCommand, { by: 'agent' }>; idempotencyKey?: undefined }
);

/**
 * The one answering core behind both doors (click and agent), for one answer or a group of them
 * (a group commit) in the caller's transaction. The group's questions are locked in one
 * statement and loaded in one; each answer is then decided in memory by the question decider in
 * the order given, on the state the earlier answers of the group left — exactly as if each had
 * had a transaction of its own, one after the other: of two answers to one question the first
 * wins and the second is refused (409), or, for an agent, finds it already answered. The
 * accepted answers' `question.answered` and `decision.recorded` are appended through the decider
 * transaction, set-based, together with their outbox rows (each in its caller's outbox) — all or
 * none. The log's unique index on (question, answered) is the guarantee behind the lock.
 *
 * A click with an `Idempotency-Key`: the first time, the answer is recorded like any click and
 * the key remembered in the same transaction; the same user sending the same request with the
 * same key again gets that answer back (not 409 — the retry of a request whose reply was lost);
 * the key with another request is refused (422). Requests with one key are serialised by the
 * question's lock, so a retry racing its original waits for it and then finds its key.
 */
export async function answerQuestions(
  manager: EntityManager,
  requests: readonly AnswerRequest[],
  now: Date,
): Promise<AnswerDecision[]> {
  if (requests.length === 0) return [];
  const log = new QuestionLog(manager);
  const questionIds = requests.map((r) => r.questionId);
  await log.lockQuestions(questionIds);
  const keyOf = (r: AnswerRequest): AnswerKey | null =>
    r.idempotencyKey && r.command.by === 'user'
      ? { projectId: r.projectId, userId: r.command.userId, key: r.idempotencyKey }
      : null;
  const seen = await seenAnswerKeys(
    manager,
    requests.flatMap((r) => keyOf(r) ?? []),
  );
  const batch = questionTransaction(manager, requests[0]!.outbox, log).batch(await log.loadMany(questionIds));
  const remember: (AnswerKey & { questionId: string; fingerprint: string })[] = [];
  const out: AnswerDecision[] = [];
  for (const request of requests) {
    const { projectId, questionId, command, outbox } = request;
    const key = keyOf(request);
    const fingerprint = key && command.by === 'user' ? answerFingerprint(questionId, command) : null;
    const before = batch.stateOf(questionId);
    if (key && fingerprint) {
      const known = seen.get(answerKeyOf(key));
      if (known !== undefined && known !== fingerprint) {
        out.push(answerKeyReused());
        continue;
      }
      if (known !== undefined && before?.answered) {
        out.push({ kind: 'already_answered', answered: before.answered });
        continue;
      }
    }
    const entry = batch.decide(
      questionId,
      { type: 'answer', projectId, decisionEventId: newId(), answer: command },
      now,
      outbox,
    );
    if (isRefusal(entry)) {
      out.push(entry);
      continue;
    }
    const outcome = answerOutcome(before, entry.decided.events);
    if (key && fingerprint && outcome.kind === 'answered') {
      seen.set(answerKeyOf(key), fingerprint);
      remember.push({ ...key, questionId, fingerprint });
    }
    out.push(outcome);
  }
  await batch.commit();
  await rememberAnswerKeys(manager, remember);
  return out;
}

/** One answer in the caller's transaction (an agent's event through the inbox): a group of one. */
export async function answerQuestion(
  manager: EntityManager,
  outbox: OutboxWriter,
  projectId: string,
  questionId: string,
  command: AnswerCommand,
  now: Date,
): Promise<AnswerDecision> {
  const request = { projectId, questionId, outbox, command } as AnswerRequest;
  const [decision] = await answerQuestions(manager, [request], now);
  return decision!;
}
