import { refusal, type Decision, type QuestionAuthor, type Refusal } from '@openq/contracts';
import type { DeclareInput, Question, QuestionEvent } from './question';
import { likeness, type Affects, type Alike } from './same-question';

/** §12.3 one agent that asked a question: its `role` (the wire's `autor`), its session, its tool call. */
export interface Asker {
  role: QuestionAuthor;
  sessionId: string;
  toolCallId: string | null;
}

/** §12.3 what a joining asker declared: its own words (`question`, `suggestion`), `affects`, session author. */
export interface Asked {
  sessionAuthorId: string;
  question: string;
  suggestion: string | null;
  affects: Affects;
}

/**
 * §12.3 a declaration joined an open question that asks the same thing (the wire's
 * `question.joined`): who asked, how alike, what it asked (kept for a split), when.
 */
export interface Join {
  questionId: string;
  asker: Asker;
  similarity: number;
  asked: Asked;
  joinedAt: string;
}

/**
 * §12.3 a decided question's decision offered to an asker instead of a new question (the wire's
 * `question.precedent_offered`).
 */
export interface PrecedentOffer {
  questionId: string;
  asker: Asker;
  decisionEventId: string;
  similarity: number;
  offeredAt: string;
}

/**
 * §12.3 the decision that stands on a decided question: what was asked (`question`, the wire's
 * `pergunta`) and answered (`answer`, the wire's `resposta`), and when.
 */
export interface Precedent {
  questionId: string;
  decisionEventId: string;
  question: string;
  answer: string;
  decidedAt: string;
}

/**
 * §12.3 "Ask once" on the question decider: a declaration that asks what an open question asks
 * joins it (`join`, on the open question); one that asks what a decided question asks gets the
 * decision back (`offer_precedent`, on the decided question) and nothing is asked of the person;
 * the session author may split a wrong join (`split`). Which one applies is `askOnce`, pure,
 * given the candidates the store found.
 */
export type AskOnceCommand =
  | {
      type: 'join';
      projectId: string;
      asker: Asker;
      asked: Asked;
      similarity: number;
    }
  | {
      type: 'offer_precedent';
      projectId: string;
      asker: Asker;
      similarity: number;
    }
  | {
      type: 'split';
      projectId: string;
      userId: string;
      toolCallId: string;
      newQuestionId: string;
    };

/** What a declaration does, given the project's questions that may ask the same thing. */
export type AskOutcome =
  | { kind: 'declare'; precedentOf?: string }
  | { kind: 'join'; questionId: string; similarity: number }
  | { kind: 'precedent'; questionId: string; similarity: number };

const isOpen = (q: Question) => !q.answered && !q.withdrawn;

/**
 * §12.3 the one rule. Only the askers' tool calls are matched (a QA verdict's or an analyst's
 * question parks work on its own id). Among the candidates that ask the same thing (same project,
 * open or decided, `likeness(...).same`), the most alike wins; on a tie, a decided one (its answer
 * frees the person at once). A decided match is the precedent unless the asker insists (`insist`
 * with a `reason`): then a new question, `precedentOf` the decision's question.
 */
export function askOnce(
  projectId: string,
  declaration: DeclareInput,
  candidates: readonly (Question | null)[],
  alike: Alike = likeness,
): AskOutcome {
  if (declaration.origin !== 'tool') return { kind: 'declare' };
  let best: { question: Question; similarity: number } | null = null;
  for (const question of candidates) {
    if (!question || question.projectId !== projectId || question.withdrawn) continue;
    const { similarity, same } = alike(declaration, question.declared);
    if (!same) continue;
    const better =
      !best ||
      similarity > best.similarity ||
      (similarity === best.similarity && !isOpen(question) && isOpen(best.question));
    if (better) best = { question, similarity };
  }
  if (!best) return { kind: 'declare' };
  const questionId = best.question.declared.questionId;
  if (isOpen(best.question)) return { kind: 'join', questionId, similarity: best.similarity };
  if (declaration.insist === true) return { kind: 'declare', precedentOf: questionId };
  return { kind: 'precedent', questionId, similarity: best.similarity };
}

/** §12.3 the decision that stands on a decided question (§11.5 the amendment over the agent's answer). */
export function precedentOf(question: Question): Precedent | null {
  const { answered, amended, declared } = question;
  if (!answered) return null;
  return {
    questionId: declared.questionId,
    decisionEventId: amended ? amended.decisionEventId : answered.decisionEventId,
    question: declared.question,
    answer: amended ? amended.answer : answered.answer,
    decidedAt: amended ? amended.supersededAt : answered.answeredAt,
  };
}

const NOT_OPEN = (): Refusal =>
  refusal(409, 'pergunta_ja_respondida', 'the question to join is no longer open');

const NOT_DECIDED = (): Refusal =>
  refusal(409, 'pergunta_nao_decidida', 'the question offered as precedent has no decision');

const NOTHING_TO_SPLIT = (): Refusal =>
  refusal(
    409,
    'nao_ha_o_que_separar',
    'no asker joined this question with that tool call (or it was split off already)',
  );

/** The same tool call joining again changes nothing (a redelivered event, a retried request). */
export function decideJoin(
  command: Extract<AskOnceCommand, { type: 'join' }>,
  question: Question | null,
  now: Date,
): Decision<QuestionEvent> {
  if (!question || question.projectId !== command.projectId)
    return refusal(404, 'pergunta_nao_encontrada', 'no such question in this project');
  if (!isOpen(question)) return NOT_OPEN();
  const { toolCallId } = command.asker;
  if (toolCallId !== null && question.joined.some((j) => j.asker.toolCallId === toolCallId)) return [];
  const data: Join = {
    questionId: question.declared.questionId,
    asker: command.asker,
    similarity: command.similarity,
    asked: command.asked,
    joinedAt: now.toISOString(),
  };
  return [{ type: 'question.joined', data, occurredAt: now }];
}

/** Offers a decided question's decision to an asker; nothing changes on the question. */
export function decideOfferPrecedent(
  command: Extract<AskOnceCommand, { type: 'offer_precedent' }>,
  question: Question | null,
  now: Date,
): Decision<QuestionEvent> {
  if (!question || question.projectId !== command.projectId)
    return refusal(404, 'pergunta_nao_encontrada', 'no such question in this project');
  const precedent = precedentOf(question);
  if (!precedent) return NOT_DECIDED();
  return [
    {
      type: 'question.precedent_offered',
      data: {
        questionId: precedent.questionId,
        asker: command.asker,
        decisionEventId: precedent.decisionEventId,
        similarity: command.similarity,
        offeredAt: now.toISOString(),
      },
      occurredAt: now,
    },
  ];
}

/**
 * §12.3 the session author splits the asker that joined with `toolCallId` off this question (the
 * handler then declares that asker's own question under `newQuestionId`). Order of checks: 404,
 * 403 not the session author, 409 `nao_ha_o_que_separar` (no such joined asker, or split already).
 */
export function decideSplit(
  command: Extract<AskOnceCommand, { type: 'split' }>,
  question: Question | null,
  now: Date,
): Decision<QuestionEvent> {
  if (!question || question.projectId !== command.projectId)
    return refusal(404, 'pergunta_nao_encontrada', 'no such question in this project');
  if (command.userId !== question.declared.sessionAuthorId)
    return refusal(
      403,
      'so_o_autor_da_sessao',
      'only the author of the session where this question was born can split it',
    );
  if (!question.joined.some((j) => j.asker.toolCallId === command.toolCallId)) return NOTHING_TO_SPLIT();
  return [
    {
      type: 'question.split',
      data: {
        questionId: question.declared.questionId,
        newQuestionId: command.newQuestionId,
        by: command.userId,
        toolCallId: command.toolCallId,
        splitAt: now.toISOString(),
      },
      occurredAt: now,
    },
  ];
}

/** The asker a declaration is, for `question.joined` / `question.precedent_offered`. */
export function askerOf(declaration: DeclareInput): Asker {
  return {
    role: declaration.askedBy,
    sessionId: declaration.sessionId,
    toolCallId: declaration.toolCallId ?? null,
  };
}

/** What a joining asker declared, kept on `question.joined` for a split. */
export function askedOf(declaration: DeclareInput): Asked {
  return {
    sessionAuthorId: declaration.sessionAuthorId,
    question: declaration.question,
    suggestion: declaration.suggestion ?? null,
    affects: declaration.affects,
  };
}
