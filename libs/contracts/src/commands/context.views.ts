import type { AskerRole } from '../vocabulary';

/** §6 one decision linked to the task, as the agents read it. */
export interface DecisionView {
  decisionEventId: string;
  questionId: string;
  pergunta: string;
  resposta: string;
  respondidaPor: string;
  /** §11.6 present only when someone else clicked the answer for `respondidaPor` (their delegate). */
  answeredBy?: string;
  viaAgente: AskerRole | null;
  decidedAt: string;
}

export interface StoryView {
  title: string;
  rf: string[];
  rnf: string[];
  dod: string[];
  dor: string[];
}

/**
 * §6.1 dev kickoff. Decisions newest first, at most 10 and 1,500 rendered characters;
 * `decisoesTotal` counts all linked ones ("showing N of M" in `text`). A task with no known
 * story yet has `storyId` and `story` null [openq].
 */
export interface DevContext {
  taskId: string;
  storyId: string | null;
  story: StoryView | null;
  decisoes: DecisionView[];
  decisoesTotal: number;
  /** The rendered block, opening with `DECISIONS_HEADING`. */
  text: string;
}

/** §6.2 QA cut: the kickoff's content plus the cut rule (`QA_CUT_RULE`, also inside `text`). */
export interface QaCut extends DevContext {
  cutRule: string;
}

export interface TurnOpenQuestion {
  questionId: string;
  pergunta: string;
  sugestao: string | null;
}

/** §11.2 one of the project's decisions as an asker's turn carries it (no `respondidaPor`: always the session author). */
export interface TurnDecision {
  decisionEventId: string;
  questionId: string;
  pergunta: string;
  resposta: string;
  viaAgente: AskerRole | null;
  decidedAt: string;
}

/** §6.3 what every asker's turn carries. */
export interface TurnContext {
  role: AskerRole;
  /** `CENTRAL_INSTRUCTION`. */
  instruction: string;
  /** `ANSWER_RULE` (ADR 0258). */
  answerRule: string;
  /** The project's open questions, newest first, up to the ceiling. */
  openQuestions: TurnOpenQuestion[];
  openQuestionsTotal: number;
  /**
   * §11.2 the project's newest decisions (one per question), newest first, at most 10 and 1,500
   * rendered characters; `decisoesTotal` counts them all ("showing N of M" in `text`).
   */
  decisoes: TurnDecision[];
  decisoesTotal: number;
  text: string;
}

export interface CorrectStoryReply {
  applied: true;
  storyId: string;
}

/** §11.3 a story archived (or already archived: the call is idempotent, no second event). */
export interface ArchiveStoryReply {
  archived: true;
  storyId: string;
}
