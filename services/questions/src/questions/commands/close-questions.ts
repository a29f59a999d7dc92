import type { EntityManager } from 'typeorm';
import { isRefusal, newId, type Refusal } from '@openq/contracts';
import type { OutboxWriter } from '@openq/messaging';
import {
  amendOutcome,
  answerOutcome,
  withdrawOutcome,
  type AmendCommand,
  type AmendOutcome,
  type AnswerCommand,
  type AnswerOutcome,
  type WithdrawCommand,
  type WithdrawOutcome,
} from '../domain/question';
import { QuestionLog } from '../question-log';
import { DelegationLog, pairKey, type DelegationPair } from '../delegation/delegation-log';
import { questionTransaction } from '../question-transaction';
import { PolicyLog } from '../policy/policy-log';
import {
  answerFingerprint,
  answerKeyOf,
  answerKeyReused,
  rememberAnswerKeys,
  seenAnswerKeys,
  type AnswerKey,
} from './answer-question/answer-with-key';

export type AnswerDecision = AnswerOutcome | Refusal;
export type WithdrawDecision = WithdrawOutcome | Refusal;
export type AmendDecision = AmendOutcome | Refusal;

/** One answer to record: a click (maybe with its `Idempotency-Key`) or an agent's, and its outbox. */
export type AnswerRequest = {
  projectId: string;
  questionId: string;
  outbox: OutboxWriter;
} & (
  | { command: Extract<AnswerCommand, { by: 'user' }>; idempotencyKey?: string }
  | { command: Extract<AnswerCommand, { by: 'agent' }>; idempotencyKey?: undefined }
);

/** One withdrawal to record (§11.5): the session author's click or an asker's tool call, and its outbox. */
export interface WithdrawRequest {
  projectId: string;
  questionId: string;
  outbox: OutboxWriter;
  withdrawal: WithdrawCommand;
}

/** One amendment to record (§11.5): the session author superseding an agent's decision, and its outbox. */
export interface AmendRequest {
  projectId: string;
  questionId: string;
  outbox: OutboxWriter;
  amendment: AmendCommand;
}

/**
 * A command decided under the question's lock: an answer or a withdrawal (which close it), or an
 * amendment of the answer (§11.5, which supersedes the agent's decision).
 */
export type ClosingRequest = AnswerRequest | WithdrawRequest | AmendRequest;
export type ClosingDecision = AnswerDecision | WithdrawDecision | AmendDecision;
/** The decision a request gets: an answer's for an answer, a withdrawal's for a withdrawal, and so on. */
export type DecisionOf<R extends ClosingRequest> = R extends WithdrawRequest
  ? WithdrawDecision
  : R extends AmendRequest
    ? AmendDecision
    : AnswerDecision;

/**
 * The one core behind answers (click and agent) and withdrawals (§11.5, click and agent), for one
 * request or a group of them (a group commit) in the caller's transaction. The group's questions
 * are locked in one statement (the question's lock: an answer and a withdrawal of one question
 * are serialised, so never both stand; the log's `question_log_one_closing` index is the
 * backstop) and loaded in one; each request is then decided in memory by the question decider in
 * the order given, on the state the earlier requests of the group left — exactly as if each had
 * had a transaction of its own, one after the other: of two answers to one question the first
 * wins and the second is refused (409), or, for an agent, finds it already answered; an answer
 * after a withdrawal is refused 409 `pergunta_retirada`, a withdrawal after an answer 409
 * `pergunta_ja_respondida`, a second withdrawal finds the first; an amendment (§11.5) sees the
 * answer an earlier request of the group recorded, and is dated never before it
 * (`amendInstant`). The accepted requests' events
 * are appended through the decider transaction, set-based, together with their outbox rows (each
 * in its caller's outbox) — all or none.
 *
 * A click with an `Idempotency-Key`: the first time, the answer is recorded like any click and
 * the key remembered in the same transaction; the same user sending the same request with the
 * same key again gets that answer back (not 409 — the retry of a request whose reply was lost);
 * the key with another request is refused (422). Requests with one key are serialised by the
 * question's lock, so a retry racing its original waits for it and then finds its key.
 */
export async function closeQuestions<R extends ClosingRequest>(
  manager: EntityManager,
  requests: readonly R[],
  now: Date,
): Promise<DecisionOf<R>[]> {
  if (requests.length === 0) return [];
  const log = new QuestionLog(manager);
  const questionIds = requests.map((r) => r.questionId);
  await log.lockQuestions(questionIds);
  const keyOf = (r: ClosingRequest): AnswerKey | null =>
    'command' in r && r.idempotencyKey && r.command.by === 'user'
      ? { projectId: r.projectId, userId: r.command.userId, key: r.idempotencyKey }
      : null;
  const seen = await seenAnswerKeys(
    manager,
    requests.flatMap((r) => keyOf(r) ?? []),
  );
  const loaded = await log.loadMany(questionIds);
  const { grants, delegationOn } = await grantsForDelegates(manager, requests, loaded);
  const batch = questionTransaction(manager, requests[0]!.outbox, log).batch(loaded);
  const remember: (AnswerKey & { questionId: string; fingerprint: string })[] = [];
  const out: ClosingDecision[] = [];
  for (const request of requests as readonly ClosingRequest[]) {
    const { projectId, questionId, outbox } = request;
    const before = batch.stateOf(questionId);
    if ('withdrawal' in request) {
      const entry = batch.decide(
        questionId,
        { type: 'withdraw', projectId, withdrawal: request.withdrawal },
        now,
        outbox,
      );
      out.push(isRefusal(entry) ? entry : withdrawOutcome(before, entry.decided.events));
      continue;
    }
    if ('amendment' in request) {
      const entry = batch.decide(
        questionId,
        { type: 'amend', projectId, decisionEventId: newId(), amendment: request.amendment },
        amendInstant(now, before?.answered?.answeredAt ?? null),
        outbox,
      );
      out.push(isRefusal(entry) ? entry : amendOutcome(before, entry.decided.events));
      continue;
    }
    const { command } = request;
    const key = keyOf(request);
    const fingerprint = key && command.by === 'user' ? answerFingerprint(questionId, command) : null;
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
    const author = before?.declared.sessionAuthorId;
    const delegated =
      command.by === 'user' && author !== undefined && command.userId !== author
        ? {
            ...command,
            grants: grants.get(pairKey({ projectId, from: author, to: command.userId })) ?? [],
            delegationOn: delegationOn.get(projectId) === true,
          }
        : command;
    const entry = batch.decide(
      questionId,
      { type: 'answer', projectId, decisionEventId: newId(), answer: delegated },
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
  return out as DecisionOf<R>[];
}

/**
 * §11.6 the delegation grants the group's clicks by someone other than the session author may
 * answer under: for each (project, author, clicker), locked (a revocation of one of them waits
 * for this transaction, or this one for it) and then read from the delegation log, one
 * statement each; §12.1 with the projects' delegation policy, read under its shared lock (a change
 * turning it off waits for this transaction, or this one sees it). Nothing for a group with no
 * such click.
 */
async function grantsForDelegates(
  manager: EntityManager,
  requests: readonly ClosingRequest[],
  questions: ReadonlyMap<string, { declared: { sessionAuthorId: string } } | null>,
) {
  const pairs: DelegationPair[] = [];
  for (const r of requests) {
    if (!('command' in r) || r.command.by !== 'user') continue;
    const author = questions.get(r.questionId)?.declared.sessionAuthorId;
    if (author !== undefined && author !== r.command.userId)
      pairs.push({ projectId: r.projectId, from: author, to: r.command.userId });
  }
  if (pairs.length === 0) return { grants: new Map(), delegationOn: new Map<string, boolean>() };
  const policies = new PolicyLog(manager);
  const projectIds = pairs.map((p) => p.projectId);
  await policies.lockForRead(projectIds);
  const inForce = await policies.loadMany(projectIds);
  const delegations = new DelegationLog(manager);
  await delegations.lockPairs(pairs);
  return {
    grants: await delegations.loadBetween(pairs),
    delegationOn: new Map([...inForce].map(([id, policy]) => [id, policy.delegacao])),
  };
}

/**
 * [openq] The instant of an amendment: now, but never at or before the answer it supersedes (a
 * replica's clock behind the one that recorded the answer), so the new decision is the newest one
 * by `decidedAt` (the context service's "one per question, newest wins") whatever the clocks did.
 */
export function amendInstant(now: Date, answeredAt: string | null): Date {
  const answered = answeredAt === null ? Number.NaN : Date.parse(answeredAt);
  return Number.isNaN(answered) || now.getTime() > answered ? now : new Date(answered + 1);
}
