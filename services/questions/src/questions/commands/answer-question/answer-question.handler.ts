import type { EntityManager } from 'typeorm';
import {
  isRefusal,
  newId,
  type AskerRole,
  type DecisionRecorded,
  type QuestionAnswered,
  type QuestionWithdrawn,
  type Refusal,
} from '@openq/contracts';
import type { OutboxWriter } from '@openq/messaging';
import { answerOutcome, type AnswerCommand, type AnswerOutcome, type Question } from '../../domain/question';
import type { Delegation } from '../../delegation/domain/delegation';
import { DelegationLog, pairKey, type DelegationPair } from '../../delegation/store/delegation-log.store';
import { PolicyLog } from '../../policy/store/policy-log.store';
import { lockedBatch, type QuestionBatch } from '../../questions-transaction';
import { answerToWire, decisionToWire, withdrawalToWire } from '../../store/question-log.store';
import {
  answerKeyOf,
  rememberAnswerKeys,
  seenAnswerKeys,
  type AnswerKey,
} from '../../store/answer-key.store';
import { answerFingerprint, answerKeyReused } from './answer-with-key';

/**
 * What an accepted answer did, for the doors' replies (`answerOutcome`), in the wire's words: an
 * agent finding the question withdrawn gets the withdrawal as `question.withdrawn` says it.
 */
export type AnswerResult =
  | { kind: 'answered'; answered: QuestionAnswered; decision: DecisionRecorded }
  | { kind: 'already_answered'; answered: QuestionAnswered }
  | { kind: 'already_withdrawn'; withdrawn: QuestionWithdrawn };

/**
 * An answer as the doors send it, in the wire's words: a click (`resposta` or `aceitarSugestao`;
 * §11.6 a delegate's grants are read here, not sent) or an agent (`viaAgente`, `resposta` or the
 * suggestion, §11.2 its chat session).
 */
export type AnswerInput =
  | { by: 'user'; userId: string; resposta?: string; aceitarSugestao?: true }
  | { by: 'agent'; viaAgente: AskerRole; resposta?: string | null; agentSessionId?: string | null };

/** The domain's command for an answer the doors sent (optional fields only when sent). */
function answerCommandOf(input: AnswerInput): AnswerCommand {
  if (input.by === 'user')
    return {
      by: 'user',
      userId: input.userId,
      ...(input.resposta !== undefined ? { answer: input.resposta } : {}),
      ...(input.aceitarSugestao !== undefined ? { acceptSuggestion: input.aceitarSugestao } : {}),
    };
  return {
    by: 'agent',
    role: input.viaAgente,
    ...(input.resposta !== undefined ? { answer: input.resposta } : {}),
    ...(input.agentSessionId !== undefined ? { agentSessionId: input.agentSessionId } : {}),
  };
}

/** An answer's outcome in the wire's words. */
function resultOf(outcome: AnswerOutcome): AnswerResult {
  switch (outcome.kind) {
    case 'answered':
      return {
        kind: outcome.kind,
        answered: answerToWire(outcome.answered),
        decision: decisionToWire(outcome.decision),
      };
    case 'already_answered':
      return { kind: outcome.kind, answered: answerToWire(outcome.answered) };
    case 'already_withdrawn':
      return { kind: outcome.kind, withdrawn: withdrawalToWire(outcome.withdrawn) };
  }
}

export type AnswerDecision = AnswerResult | Refusal;

/** One answer to record: a click (maybe with its `Idempotency-Key`) or an agent's, and its outbox. */
export type AnswerRequest = {
  projectId: string;
  questionId: string;
  outbox: OutboxWriter;
} & (
  | { command: Extract<AnswerInput, { by: 'user' }>; idempotencyKey?: string }
  | { command: Extract<AnswerInput, { by: 'agent' }>; idempotencyKey?: undefined }
);

/**
 * What the answers of a group are decided with, read under the questions' lock before any is
 * decided: the `Idempotency-Key`s already used (with the fingerprint of the request each stands
 * for), and, for the clicks by someone other than the session author, the delegation grants and
 * the projects' delegation policy; then the keys to remember once the answers are saved.
 */
export interface AnswerContext {
  seen: Map<string, string>;
  grants: Map<string, Delegation[]>;
  delegationOn: Map<string, boolean>;
  remember: (AnswerKey & { questionId: string; fingerprint: string })[];
}

const keyOf = (r: AnswerRequest): AnswerKey | null =>
  r.idempotencyKey && r.command.by === 'user'
    ? { projectId: r.projectId, userId: r.command.userId, key: r.idempotencyKey }
    : null;

/**
 * Reads what these answers are decided with (`AnswerContext`), their questions locked and loaded:
 * the keys in one statement; the grants and policies as `grantsForDelegates` says (nothing for a
 * group with no delegate's click).
 */
export async function prepareAnswers(
  manager: EntityManager,
  requests: readonly AnswerRequest[],
  questions: ReadonlyMap<string, Question | null>,
): Promise<AnswerContext> {
  const seen = await seenAnswerKeys(
    manager,
    requests.flatMap((r) => keyOf(r) ?? []),
  );
  const { grants, delegationOn } = await grantsForDelegates(manager, requests, questions);
  return { seen, grants, delegationOn, remember: [] };
}

/**
 * Decides one answer in the batch, on the state the batch's earlier commands left (docs in
 * `closeQuestions`). A click with an `Idempotency-Key`: the first time, the answer is recorded
 * like any click and the key remembered in the same transaction (`rememberAnswers`); the same
 * user sending the same request with the same key again gets that answer back (not 409 — the
 * retry of a request whose reply was lost); the key with another request is refused (422).
 * Requests with one key are serialised by the question's lock, so a retry racing its original
 * waits for it and then finds its key.
 */
export function decideAnswer(
  batch: QuestionBatch,
  request: AnswerRequest,
  now: Date,
  context: AnswerContext,
): AnswerDecision {
  const { projectId, questionId, outbox, command } = request;
  const before = batch.stateOf(questionId);
  const key = keyOf(request);
  const fingerprint = key && command.by === 'user' ? answerFingerprint(questionId, command) : null;
  if (key && fingerprint) {
    const known = context.seen.get(answerKeyOf(key));
    if (known !== undefined && known !== fingerprint) return answerKeyReused();
    if (known !== undefined && before?.answered)
      return { kind: 'already_answered', answered: answerToWire(before.answered) };
  }
  const author = before?.declared.sessionAuthorId;
  const domainCommand = answerCommandOf(command);
  const delegated =
    domainCommand.by === 'user' && author !== undefined && domainCommand.userId !== author
      ? {
          ...domainCommand,
          grants: context.grants.get(pairKey({ projectId, from: author, to: domainCommand.userId })) ?? [],
          delegationOn: context.delegationOn.get(projectId) === true,
        }
      : domainCommand;
  const entry = batch.decide(
    questionId,
    { type: 'answer', projectId, decisionEventId: newId(), answer: delegated },
    now,
    outbox,
  );
  if (isRefusal(entry)) return entry;
  const outcome = answerOutcome(before, entry.decided.events);
  if (key && fingerprint && outcome.kind === 'answered') {
    context.seen.set(answerKeyOf(key), fingerprint);
    context.remember.push({ ...key, questionId, fingerprint });
  }
  return resultOf(outcome);
}

/** Remembers the keys of the answers just saved (after the batch's `commit`, in its transaction). */
export async function rememberAnswers(manager: EntityManager, context: AnswerContext): Promise<void> {
  await rememberAnswerKeys(manager, context.remember);
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
  requests: readonly AnswerRequest[],
  questions: ReadonlyMap<string, { declared: { sessionAuthorId: string } } | null>,
): Promise<{ grants: Map<string, Delegation[]>; delegationOn: Map<string, boolean> }> {
  const pairs: DelegationPair[] = [];
  for (const r of requests) {
    if (r.command.by !== 'user') continue;
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
    delegationOn: new Map([...inForce].map(([id, policy]) => [id, policy.delegation])),
  };
}

/**
 * One answer in the caller's transaction (an agent's event through the inbox): the question
 * locked and loaded, the answer decided by the question decider and saved through the decider
 * kit, a click's `Idempotency-Key` remembered. A group of answers, withdrawals and amendments
 * goes through `closeQuestions` (`store/question-groups.store.ts`) the same way.
 */
export async function answerQuestion(
  manager: EntityManager,
  outbox: OutboxWriter,
  projectId: string,
  questionId: string,
  command: AnswerInput,
  now: Date,
): Promise<AnswerDecision> {
  const request = { projectId, questionId, outbox, command } as AnswerRequest;
  const { batch, loaded } = await lockedBatch(manager, outbox, [questionId]);
  const context = await prepareAnswers(manager, [request], loaded);
  const decision = decideAnswer(batch, request, now, context);
  await batch.commit();
  await rememberAnswers(manager, context);
  return decision;
}
