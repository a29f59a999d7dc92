/**
 * The words openq puts in front of agents (ADR 0214 §2, ADR 0258 §2, SPEC §5, §6.3). They are
 * defined once, in the contracts, and shipped here for engines that build their own prompts.
 */
export {
  ANSWER_RULE,
  CENTRAL_INSTRUCTION,
  DECISIONS_HEADING,
  QA_CUT_RULE,
  TURN_INSTRUCTION,
} from '@openq/contracts';
