import type { DecisionView } from './decision-selection';
import { charLength, clip, oneLine, showingLine } from './text';

export { DECISIONS_HEADING } from '@openq/contracts';
import { DECISIONS_HEADING } from '@openq/contracts';
export const NO_DECISIONS_LINE = 'No user decisions linked to this task.';
/** SPEC §6 / ADR 0214 §7: both ceilings hold at once. */
export const MAX_DECISIONS = 10;
/** Of the whole rendered block: heading, decision lines and the "showing N of M" line. */
export const MAX_BLOCK_CHARS = 1500;

/** What a line of the block needs of a decision. */
export type RenderableDecision = Pick<DecisionView, 'pergunta' | 'resposta'>;

export interface DecisionsBlock<T extends RenderableDecision = DecisionView> {
  text: string;
  /** The decisions the text shows, in order (a prefix of the input). */
  shown: T[];
  total: number;
}

export interface DecisionsBlockOptions {
  /** The line under the heading when there are no decisions (default: the task's wording). */
  none?: string;
  /**
   * How many decisions there are when the caller passes only the newest ones (a read model that
   * cuts in SQL); defaults to all of them, and is never below what was passed.
   */
  total?: number;
}

/**
 * Renders decisions already selected and ordered newest first (see `selectDecisions`).
 *
 * - One line per decision: `- <pergunta> → <resposta>`, whitespace folded. No date or author: the
 *   order already says which is newer, and both are in `shown` for whoever needs them.
 * - Whole decisions only, newest first, as many as fit BOTH ceilings; an older decision is never
 *   shown in place of a newer one that does not fit, so "showing N of M" always means "the N newest".
 * - Anything cut is declared on a last line "showing N of M".
 * - Should even the newest decision alone not fit (a very long answer), it is clipped with "…"
 *   rather than dropped, and the last line says "(clipped)": the newest decision is never lost.
 * - No decisions: the heading and "No user decisions linked to this task." (or `options.none`), so
 *   the text always opens with the heading and an agent can tell "none" from "not sent".
 *
 * The dev kickoff, the QA cut and the askers' turn all render their decisions here.
 */
export function renderDecisionsBlock<T extends RenderableDecision = DecisionView>(
  decisions: readonly T[],
  options: DecisionsBlockOptions = {},
): DecisionsBlock<T> {
  const total = Math.max(options.total ?? 0, decisions.length);
  if (decisions.length === 0) {
    const none = total === 0 ? (options.none ?? NO_DECISIONS_LINE) : showingLine(0, total);
    return { text: `${DECISIONS_HEADING}\n${none}`, shown: [], total };
  }

  const lines = decisions.slice(0, MAX_DECISIONS).map(decisionLine);
  for (let n = lines.length; n >= 1; n -= 1) {
    const text = compose(lines.slice(0, n), n < total ? showingLine(n, total) : null);
    if (charLength(text) <= MAX_BLOCK_CHARS) return { text, shown: decisions.slice(0, n), total };
  }

  const cutLine = `${showingLine(1, total)} (clipped)`;
  const room = MAX_BLOCK_CHARS - charLength(compose([''], cutLine));
  const text = compose([clip(lines[0] ?? '', room)], cutLine);
  return { text, shown: decisions.slice(0, 1), total };
}

function decisionLine(decision: RenderableDecision): string {
  return `- ${oneLine(decision.pergunta)} → ${oneLine(decision.resposta)}`;
}

function compose(lines: readonly string[], cutLine: string | null): string {
  return [DECISIONS_HEADING, ...lines, ...(cutLine === null ? [] : [cutLine])].join('\n');
}
