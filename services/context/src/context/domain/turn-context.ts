import { ANSWER_RULE, CENTRAL_INSTRUCTION, TURN_INSTRUCTION, type AskerRole } from '@openq/agent-sdk';
import { latestPerQuestion, newestFirst as newestDecisionFirst } from './decision-selection';
import { renderDecisionsBlock } from './decisions-block';
import { oneLine, showingLine } from './text';
import {
  compareInstantsDesc,
  type TurnContext,
  type TurnDecision,
  type TurnOpenQuestion,
} from '@openq/contracts';

/** How many open questions an asker's turn lists; `openQuestionsTotal` says how many there are. */
export const MAX_TURN_OPEN_QUESTIONS = 20;

/** The decisions block of a turn with no decision in the project yet (under the usual heading). */
export const NO_PROJECT_DECISIONS_LINE = 'No user decisions in this project yet.';

/** SPEC §11.2: one of the project's decisions, as an asker's turn carries it (the wire view's own type). */
export type { TurnDecision } from '@openq/contracts';

/** The project's newest decisions, and how many there are when the caller cut them (in SQL). */
export interface RecentDecisions {
  newest: readonly TurnDecision[];
  total?: number;
}

/** An open question of the project: the view a turn lists (the contract's), and when it was declared. */
export interface OpenQuestionFacts extends TurnOpenQuestion {
  /** ISO-8601 instant. */
  declaredAt: string;
}

/** SPEC §6.3: the contract's reply (its fields are the wire's). */
export type { TurnContext };

/**
 * The askers' turn: the instruction, then the project's open questions with their ids (needed to
 * call answer_open_question) and suggestions. Newest first: the questions a user answers in the chat
 * are most often the ones just asked, so those are the ones a cut must keep.
 *
 * `total` is how many questions are open when the caller passes only the newest ones (a read model
 * that cuts in SQL); it defaults to all of them, and is never below what was passed.
 *
 * Then the project's newest decisions (SPEC §11.2, ADR 0214 §8 "the PO receives the answer"), so an
 * asker learns the user's answer without consuming `decision.recorded`: one per question, newest
 * first, in the same block as the dev kickoff's (10 decisions and 1,500 characters, "showing N of M").
 */
export function buildTurnContext(
  role: AskerRole,
  openQuestions: readonly OpenQuestionFacts[],
  total: number = openQuestions.length,
  decisions: RecentDecisions = { newest: [] },
): TurnContext {
  const shown = [...openQuestions]
    .sort(newestFirst)
    .slice(0, MAX_TURN_OPEN_QUESTIONS)
    .map(({ questionId, pergunta, sugestao }) => ({ questionId, pergunta, sugestao }));
  const openTotal = Math.max(total, openQuestions.length);
  const block = renderDecisionsBlock(latestPerQuestion(decisions.newest).sort(newestDecisionFirst), {
    none: NO_PROJECT_DECISIONS_LINE,
    total: decisions.total,
  });
  return {
    role,
    instruction: CENTRAL_INSTRUCTION,
    answerRule: ANSWER_RULE,
    openQuestions: shown,
    openQuestionsTotal: openTotal,
    decisoes: block.shown.map(toTurnDecision),
    decisoesTotal: block.total,
    text: `${renderTurn(shown, openTotal)}\n\n${block.text}`,
  };
}

/** Exactly the fields of SPEC §11.2, whatever else the caller's facts carry. */
function toTurnDecision(decision: TurnDecision): TurnDecision {
  const { decisionEventId, questionId, pergunta, resposta, viaAgente, decidedAt } = decision;
  return { decisionEventId, questionId, pergunta, resposta, viaAgente, decidedAt };
}

/** Newest first; equal instants by questionId descending (UUID v7: still time order). */
function newestFirst(a: OpenQuestionFacts, b: OpenQuestionFacts): number {
  const byTime = compareInstantsDesc(a.declaredAt, b.declaredAt);
  if (byTime !== 0 || a.questionId === b.questionId) return byTime;
  return a.questionId < b.questionId ? 1 : -1;
}

function renderTurn(shown: readonly TurnOpenQuestion[], total: number): string {
  if (total === 0) return `${TURN_INSTRUCTION}\nOpen questions: none.`;
  const lines = shown.map(questionLine);
  const cut = shown.length < total ? [showingLine(shown.length, total)] : [];
  return [TURN_INSTRUCTION, 'Open questions (newest first):', ...lines, ...cut].join('\n');
}

function questionLine(q: TurnOpenQuestion): string {
  const suggestion = q.sugestao === null ? '' : oneLine(q.sugestao);
  return `- ${q.questionId}: ${oneLine(q.pergunta)}${suggestion === '' ? '' : ` (suggestion: ${suggestion})`}`;
}
