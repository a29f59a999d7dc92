import type { Actor, UserActor } from '../dto/actor.dto';
import type { Afeta } from '../dto/afeta.dto';
import type { StoryChanges } from '../dto/story-changes.dto';
import type {
  AnalystDeliverable,
  AskerRole,
  Gate,
  GateNextAction,
  ParkedReason,
  PauseSource,
  QuestionAuthor,
  QuestionOrigin,
  ResumeTrigger,
  Veredito,
  VerdictRejectionReason,
} from '../vocabulary';

/**
 * Payloads (`data`) of the events openq publishes on OPENQ_EVENTS. `projectId` travels in the
 * envelope, never in `data`. Timestamps are ISO-8601 strings.
 */

/** §3.1 a question entered the log. */
export interface QuestionDeclared {
  questionId: string;
  sessionId: string;
  sessionAuthorId: string;
  autor: QuestionAuthor;
  pergunta: string;
  sugestao: string | null;
  afeta: Afeta;
  origin: QuestionOrigin;
  toolCallId: string | null;
  declaredAt: string;
  /**
   * §12.3 the decided question this one was asked again over (the asker insisted: `insistir` with
   * `motivo`); absent otherwise.
   */
  precedentOf?: string | null;
  /** §12.3 why the asker insisted; present with `precedentOf`. */
  motivo?: string | null;
}

/** §12.3 one agent that asked a question: its role, its session, its tool call. */
export interface QuestionAsker {
  autor: QuestionAuthor;
  sessionId: string;
  toolCallId: string | null;
}

/**
 * §12.3 a declaration joined an open question that asks the same thing: no new question. [openq]
 * `asked` keeps what the joining asker declared (its own words, `afeta`, session author), so a
 * split can give it back its own question; `joinedAt` when.
 */
export interface QuestionJoined {
  questionId: string;
  asker: QuestionAsker;
  similarity: number;
  asked: {
    sessionAuthorId: string;
    pergunta: string;
    sugestao: string | null;
    afeta: Afeta;
  };
  joinedAt: string;
}

/**
 * §12.3 a declaration met a decided question that asks the same thing: the decision was offered
 * back and nothing new was asked of the person. [openq] with the decision offered, the likeness
 * and when.
 */
export interface QuestionPrecedentOffered {
  questionId: string;
  asker: QuestionAsker;
  decisionEventId: string;
  similarity: number;
  offeredAt: string;
}

/** §12.3 the session author split a wrong join: the joined asker got a question of its own. */
export interface QuestionSplit {
  questionId: string;
  newQuestionId: string;
  by: string;
  /** [openq] the split asker's tool call, and when. */
  toolCallId: string;
  splitAt: string;
}

/** §3.1 the one answer a question gets. `respondidaPor` is always the session author. */
export interface QuestionAnswered {
  questionId: string;
  resposta: string;
  aceitouSugestao: boolean;
  decisionEventId: string;
  respondidaPor: string;
  viaAgente: AskerRole | null;
  /**
   * §11.2 the recording agent's own chat session (ADR 0258 §4, the audit trail), when it gave one;
   * absent for a click and for an agent that gave none (events written before it existed lack it too).
   */
  agentSessionId?: string | null;
  /**
   * §11.6 who clicked: the session author for their own click, their delegate for a delegate's
   * (then `grantId` says under which grant). Absent for an agent's answer (`viaAgente` says it) and
   * for answers recorded before delegation existed.
   */
  answeredBy?: string | null;
  /** §11.6 the `delegation.granted` under which a delegate answered; absent otherwise. */
  grantId?: string | null;
  answeredAt: string;
}

/**
 * §11.5 a question no longer needs the user: withdrawn by the session author (a click, `by` the
 * user) or by an asker (`withdraw_open_question`, `by` `{ kind: 'agent', id: <role> }`). It leaves
 * the open lists and decides nothing (no decision record); it is never answered afterwards.
 */
export interface QuestionWithdrawn {
  questionId: string;
  by: Actor;
  /** Why, in the withdrawer's words (1–500 characters). */
  motivo: string;
  withdrawnAt: string;
}

/** §8 a tool call (`agent.question.declare` / `.answer` / `.withdraw`) was refused; tells the engine why. */
export interface QuestionRejected {
  toolCallId: string;
  reason: string;
  message: string;
}

/** §3.1 the generic decision record written with every answer (same transaction). */
export interface DecisionRecorded {
  decisionEventId: string;
  actor: UserActor;
  /** The question (`pergunta`). */
  context: string;
  /** The answer (`resposta`). */
  choice: string;
  /** What the question affects (`afeta`). */
  consequences: Afeta;
  questionId: string;
  viaAgente: AskerRole | null;
  /** §11.2 as in `QuestionAnswered`: the recording agent's chat session, when it gave one. */
  agentSessionId?: string | null;
  /** §11.6 as in `QuestionAnswered`: who clicked (`actor` stays the session author, for whom). */
  answeredBy?: string | null;
  /** §11.6 as in `QuestionAnswered`: the grant a delegate answered under. */
  grantId?: string | null;
  decidedAt: string;
}

/**
 * §11.6 `from` lets `to` answer, by click, the questions `from` may answer in the project (those
 * of sessions `from` led), until `until`. Granted by `from` only, for at most
 * `DELEGATION_MAX_DAYS`. `projectId` is in `data` too (SPEC §11.6 names it), as in the envelope.
 */
export interface DelegationGranted {
  grantId: string;
  projectId: string;
  from: string;
  to: string;
  until: string;
  /** [openq] when it was granted. */
  grantedAt: string;
}

/**
 * §12.1 a maintainer changed the project's policies: the two conveniences that relax the seeds'
 * rules (a delegate's click, a maintainer's override), with the values now in force and why.
 */
export interface ProjectPolicyChanged {
  projectId: string;
  by: string;
  motivo: string;
  delegacao: boolean;
  overrideDeMantenedor: boolean;
  /** [openq] when it changed. */
  changedAt: string;
}

/** §11.6 the grant no longer lets its delegate answer (revoked by its grantor). */
export interface DelegationRevoked {
  grantId: string;
  projectId: string;
  by: string;
  revokedAt: string;
}

/**
 * §11.5 the session author superseded a decision an agent recorded (ADR 0258's risk: the agent
 * misread the chat) with their own. Written with the new decision's `decision.recorded` (same
 * transaction, `decisionEventId` here = that record's id); the log keeps both, the newest wins.
 * A gate that already resumed on the superseded decision is not parked again: the engine reads this.
 */
export interface DecisionSuperseded {
  questionId: string;
  /** The agent's decision that no longer stands. */
  supersededDecisionEventId: string;
  /** [openq] The asker that had recorded it. */
  supersededViaAgente: AskerRole;
  /** The session author's decision that replaces it. */
  decisionEventId: string;
  resposta: string;
  /** [openq] Who superseded it: always the session author. */
  by: string;
  supersededAt: string;
}

/** §5 a QA/secops round was judged (consolidated verdict) and what happens next. */
export interface GateVerdictRecorded {
  taskId: string;
  gate: Gate;
  veredito: Veredito;
  correctionCount: number;
  maxCorrections: number;
  nextAction: GateNextAction;
}

/** §5 a cycle parked: idle (sweep) or waiting on the user's decision. */
export interface GateRescueParked {
  taskId: string;
  gate: Gate;
  reason: ParkedReason;
  /** The open questions the cycle waits on (empty when idle). */
  questionIds: string[];
  /** How long the cycle had been idle (idle parking only). */
  idadeSegundos?: number;
  /** Words for a person: why it parked. */
  motivo: string;
}

/** [openq] §5 what a subspecialty asked to change in the round that parked on a decision. */
export interface GatePendingChange {
  subspecialty: string;
  resumo: string | null;
  itens: string[];
}

/**
 * §5 a parked cycle runs again: by the last answer (§11.5 or withdrawal: trigger `withdrawn`), or
 * by a person's resume gesture; §11.1 or by
 * a maintainer's override of a decision park (`by`, `motivo`; `questionIds` = the questions it
 * leaves open, `decisionEventIds` = the answers the park had already got).
 */
export interface GateResumed {
  taskId: string;
  gate: Gate;
  trigger: ResumeTrigger;
  questionIds: string[];
  decisionEventIds: string[];
  /**
   * [openq] The changes requested in the round that parked (needs_user_decision wins over
   * changes_requested, §5), shown to QA again on resume. Absent or empty when there were none.
   */
  pendingChanges?: GatePendingChange[];
  /**
   * [openq] §11.5 the questions of the park that were withdrawn (no decision for them); absent
   * when none was.
   */
  withdrawnQuestionIds?: string[];
  /** §11.1 trigger `override` only: the maintainer who resumed without the answer. */
  by?: string;
  /** §11.1 trigger `override` only: why, in their words (1–500 characters). */
  motivo?: string;
}

/**
 * §11.1 a QA round was refused: a `needs_user_decision` verdict cited a question that is not in
 * the project. Nothing was parked, the counter is untouched, the cycle stays as it was.
 */
export interface GateVerdictRejected {
  taskId: string;
  gate: Gate;
  roundId: string;
  reason: VerdictRejectionReason;
  /** The offending `openQuestionId`. */
  questionId: string;
}

/** §5 the sweep asks the engine to re-dispatch a stale (not yet parked) cycle. */
export interface GateRedispatchRequested {
  taskId: string;
  gate: Gate;
  idadeSegundos: number;
}

/** §7 the engine may start the analyst on this task. */
export interface PipelineTaskAdmitted {
  taskId: string;
  repo: string;
}

/** §7 the analyst's questions are active: the task waits for a person. */
export interface PipelineNeedsInput {
  taskId: string;
  repo: string;
  questionIds: string[];
}

/** §7 the package is complete and newer than any questions. */
export interface PipelineInReview {
  taskId: string;
  repo: string;
}

/** §7 the task moves on by itself (auto-approve label), e.g. `to: 'architecture'`. */
export interface PipelineAdvanced {
  taskId: string;
  to: string;
}

/** §7 neither questions nor a full package: the previous behaviour, with what is missing. */
export interface PipelineAnalysisIncomplete {
  taskId: string;
  repo: string;
  missing: AnalystDeliverable[];
}

/** §7 `pausedAt` set (`engine` on Needs Input, `operator` by hand). */
export interface PipelineTaskPaused {
  taskId: string;
  source: PauseSource;
}

/** §7 `pausedAt` cleared. */
export interface PipelineTaskUnpaused {
  taskId: string;
  source: PauseSource;
}

/** §7 the analyst must run again on this task (its questions were answered). */
export interface PipelineAnalystRelaunch {
  taskId: string;
}

/** §6.4 an accepted story correction; `changes` holds exactly what was applied. */
export interface StoryCorrected {
  storyId: string;
  questionId: string | null;
  actor: Actor;
  changes: StoryChanges;
}

/**
 * §11.3 a repo of the project was frozen: no task of it enters analysis until it is unfrozen.
 * `by`: the user id of the maintainer, or `agent` for `agent.repo.freeze` [openq].
 */
export interface PipelineRepoFrozen {
  repo: string;
  by: string;
  motivo: string;
}

/** §11.3 the freeze was lifted; the repo's waiting tasks are admitted again. */
export interface PipelineRepoUnfrozen {
  repo: string;
  by: string;
}

/** §11.3 a draft story was archived (ADR 0214 §8: archiving stays draft-only), by a user or `agent/po`. */
export interface StoryArchived {
  storyId: string;
  actor: Actor;
}
