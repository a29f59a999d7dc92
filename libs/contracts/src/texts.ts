/**
 * Sentences the contract fixes word for word (SPEC §6, ADR 0214 §2, ADR 0258 §2). The context
 * service renders them and the agent SDK ships them; both take them from here.
 */

/** §6.3 the ONE central instruction of the askers' turn. */
export const CENTRAL_INSTRUCTION =
  'Every doubt you leave for the user becomes declare_open_question, with your suggestion and what it affects; do not end the turn with a question only in the text.';

/**
 * §6.3 / ADR 0258 when an asker may close a question from the chat. One short clause: it rides on
 * every asker turn, inside ADR 0214's ~60-token budget (measured in libs/agent-sdk).
 */
export const ANSWER_RULE =
  'Close with answer_open_question only on an unequivocal chat answer; in doubt, leave it open.';

/** What an asker's turn carries every turn: the central instruction, then the answer rule. */
export const TURN_INSTRUCTION = `${CENTRAL_INSTRUCTION}\n${ANSWER_RULE}`;

/** §6.1 / §6.2 heading that opens every decisions block. */
export const DECISIONS_HEADING = 'User decisions — they win over FR/DoR when they conflict';

/** §5 / §6.2 QA's cut rule. */
export const QA_CUT_RULE =
  'A requirement marked "not confirmed by the user" (or contradicted by a current decision) yields needs_user_decision, never changes_requested.';
