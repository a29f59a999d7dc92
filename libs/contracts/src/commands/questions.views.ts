import type {
  DecisionSuperseded,
  QuestionAsker,
  QuestionDeclared,
  QuestionWithdrawn,
} from '../events/openq-payloads';
import type {
  AskerRole,
  QuestionFactStatus,
  QuestionListSort,
  QuestionStatus,
  ReadinessAction,
} from '../vocabulary';
import type { BlockedWork } from './gates.views';

/**
 * §4 a question as the list shows it: every field of §3.1 (the declaration and, once answered,
 * the answer; `null` while open), its status, and whether the asking user may answer it here.
 */
export interface OpenQuestionView extends QuestionDeclared {
  projectId: string;
  /** §12.3 every agent that asked it, the first one first (one unless declarations joined it). */
  askers: QuestionAsker[];
  status: QuestionStatus;
  resposta: string | null;
  aceitouSugestao: boolean | null;
  decisionEventId: string | null;
  respondidaPor: string | null;
  /** §11.6 who clicked the answer: the session author, or their delegate (`grantId` then set); `null` for an agent's answer. */
  answeredBy?: string | null;
  grantId?: string | null;
  viaAgente: AskerRole | null;
  /** §11.2 the recording agent's chat session (audit trail); `null` for a click, an open question, or none given. */
  agentSessionId: string | null;
  answeredAt: string | null;
  /** §11.5 who withdrew it, why and when; `null` unless `status` is `withdrawn`. */
  withdrawal: Pick<QuestionWithdrawn, 'by' | 'motivo' | 'withdrawnAt'> | null;
  /**
   * §11.5 the agent's decision this question's standing one superseded (`resposta`,
   * `decisionEventId` and `viaAgente` above are then the session author's); `null` when none was.
   */
  amendment:
    | (Pick<
        DecisionSuperseded,
        'supersededDecisionEventId' | 'supersededViaAgente' | 'by' | 'supersededAt'
      > & { supersededResposta: string })
    | null;
  /** True only for the session author on an open question (§3.3); the same person may withdraw it (§11.5). */
  canAnswer: boolean;
  /** §11.5 True only for the session author on a question whose standing decision an agent recorded. */
  canAmend: boolean;
  /** Why the control is inert, in words for a person; `null` when `canAnswer`. */
  inertReason: string | null;
  /**
   * §11.6 for a delegate on an open question of their grantor: `canAnswer` is true, and these say
   * for whom (`respondidaPor` the answer will carry), under which grant, until when. Absent otherwise.
   */
  answeringAs?: { userId: string; grantId: string; until: string } | null;
  /**
   * §12.3 on a question asked again over a decision (`precedentOf` set, the asker insisted): that
   * decision as it stands — its answer and when — for the person to see what was decided before;
   * `null` if it cannot be read. Absent on every other question.
   */
  precedent?: Precedent | null;
  /**
   * [openq] issue #18 what waits on this open question and since when (from the gates service;
   * the gateway adds it to the list's items): `null` in the questions service's own reply, and
   * when the gates service did not answer; `{ blocks: [] }` for a question that blocks nothing.
   */
  blocking?: { blocks: BlockedWork[]; since: string | null } | null;
}

/** §11.6 a grant as `GET /projects/:projectId/delegations` lists it. */
export interface DelegationView {
  grantId: string;
  projectId: string;
  from: string;
  to: string;
  until: string;
  grantedAt: string;
  /** `active` while neither revoked nor past `until` (as of the reply). */
  status: 'active' | 'expired' | 'revoked';
  revokedAt: string | null;
  revokedBy: string | null;
}

/** §11.6 the reply to a grant: its id (201). */
export interface GrantDelegationReply {
  grantId: string;
  from: string;
  to: string;
  until: string;
  grantedAt: string;
}

/** §11.6 the grants from the caller (`given`) and to the caller (`received`), newest first. */
export interface DelegationListReply {
  given: DelegationView[];
  received: DelegationView[];
}

/** §12.3 the decision that already answers a declaration (nothing new was asked). */
export interface Precedent {
  questionId: string;
  decisionEventId: string;
  pergunta: string;
  resposta: string;
  decidedAt: string;
}

/**
 * A declaration's outcome: a new question (`created`), the same tool call again (`created:
 * false`), §12.3 an open question asking the same thing that it joined (`joined: true`), or a
 * decided one whose decision comes back (`precedent`; `questionId` is then the decided question's:
 * nothing was recorded, and the HTTP reply is `{ precedent }` alone).
 */
export interface DeclareQuestionReply {
  questionId: string;
  /** False when the same `toolCallId` had already declared it (HTTP 200 instead of 201). */
  created: boolean;
  joined?: true;
  precedent?: Precedent;
}

/** §12.3 the split asker's new open question. */
export interface SplitQuestionReply {
  questionId: string;
}

export interface AnswerQuestionReply {
  questionId: string;
  status: 'answered';
  resposta: string;
  aceitouSugestao: boolean;
  decisionEventId: string;
  respondidaPor: string;
}

/**
 * §11.5 the reply to a withdrawal by click: the withdrawal that stands. `alreadyWithdrawn` [openq]:
 * the question had been withdrawn before (by this person or an agent), so this request changed
 * nothing and the first `motivo` stands (a repeated withdrawal is 200, not an error).
 */
export interface WithdrawQuestionReply {
  withdrawn: true;
  questionId: string;
  status: 'withdrawn';
  by: QuestionWithdrawn['by'];
  motivo: string;
  withdrawnAt: string;
  alreadyWithdrawn: boolean;
}

/**
 * §11.5 the reply to an amendment: the session author's decision that now stands.
 * `alreadyAmended` [openq]: the same `resposta` had already superseded the agent's decision (a
 * retried click), so nothing was written and the first amendment's ids come back.
 */
export interface AmendDecisionReply {
  questionId: string;
  decisionEventId: string;
  supersededDecisionEventId: string;
  resposta: string;
  alreadyAmended: boolean;
}

/** ADR 0258: idempotent, never a conflict. */
/**
 * §4 / §12.1 the internal agent answer never conflicts: on a question already closed it says how
 * (`closedAs`), with the standing decision (`null` for a withdrawn question: it decided nothing).
 */
export interface AnswerByAgentReply {
  status: 'answered' | 'already_answered';
  questionId: string;
  decisionEventId: string | null;
  closedAs?: 'answered' | 'withdrawn';
}

/** §12.1 a project's policies: the two conveniences that relax the seeds' rules, both off by default. */
export interface ProjectPolicies {
  delegacao: boolean;
  overrideDeMantenedor: boolean;
}

/**
 * §12.1 the policies, and (for the caller named in the request) the session authors whose
 * decisions the caller may take for them now: their live grants while delegation is on, else none.
 */
export interface ProjectPoliciesReply extends ProjectPolicies {
  answersFor: string[];
}

/** §4 a slice, oldest first; `total` counts every question matching the filter. */
export interface QuestionListReply {
  items: OpenQuestionView[];
  total: number;
  limit: number;
  nextCursor: string | null;
  /** [openq] issue #18 the order applied (the gateway's list route); `oldest` when the blocking set was unavailable. */
  sort?: QuestionListSort;
  /**
   * [openq] issue #18 how many of the set the other filters leave are the caller's (`mine`) and how
   * many are not (`others`), whatever `who` says: the inbox's "mine / all / can't answer" counts.
   */
  counts?: { mine: number; others: number };
}

export interface QuestionCountReply {
  open: number;
}

/** [openq] §11.2 one id of `openq.questions.status`, from the log's committed state. */
export interface QuestionStatusItem {
  questionId: string;
  /** `absent`: no question with this id in this project (another project's is absent too). */
  status: QuestionFactStatus;
  /** The answer's decision, when answered; otherwise null. */
  decisionEventId: string | null;
  answeredAt: string | null;
}

/** [openq] §11.2 one item per id asked, in the order asked (a repeated id once). */
export interface QuestionStatusReply {
  items: QuestionStatusItem[];
}

/** [openq] issue #34 the question a tool call declared; `null` while the log has none. */
export interface DeclaredByReply {
  questionId: string | null;
}

/** §4 readiness warns and moves on: never blocks. */
export interface ReadinessReply {
  action: ReadinessAction;
  openQuestions: number;
  blocking: false;
  notice: string | null;
  queue: string;
}

/** §4 "N questions are still open — answer" (singular for one; `null` for none). */
export function readinessNotice(openQuestions: number): string | null {
  if (openQuestions <= 0) return null;
  return openQuestions === 1
    ? '1 question is still open — answer'
    : `${openQuestions} questions are still open — answer`;
}

/** §4 the queue a readiness notice links to. */
export function openQuestionsQueuePath(projectId: string): string {
  return `/projects/${projectId}/open-questions`;
}
