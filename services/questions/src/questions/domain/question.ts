import {
  AFETA_MAX_IDS,
  refusal,
  type Actor,
  type AskerRole,
  type Decider,
  type Decision,
  type DomainEvent,
  type UserActor,
  type QuestionAuthor,
  type QuestionOrigin,
  type QuestionSplit,
  type Refusal,
} from '@openq/contracts';
import { standingOf, type Delegation, type Standing } from '../delegation/domain/delegation';
import { DELEGATION_OFF } from '../policy/domain/project-policy';
import {
  decideJoin,
  decideOfferPrecedent,
  decideSplit,
  type AskOnceCommand,
  type Join,
  type PrecedentOffer,
} from './ask-once';
import type { Affects } from './same-question';

/**
 * A question folded from its log: declared once, then answered or withdrawn at most once (never
 * both); an answer an agent recorded may then be superseded once by the session author (§11.5).
 */
export interface Question {
  projectId: string;
  declared: Declaration;
  answered: Answer | null;
  withdrawn: Withdrawal | null;
  amended: Supersession | null;
  /** §12.3 the askers that joined it and were not split off, in the order they joined. */
  joined: Join[];
}

/**
 * §3.1 a question as it was declared (the wire's `question.declared`): who asked (`askedBy`, the
 * wire's `autor`), in which session, for whom (`sessionAuthorId`), the `question` (`pergunta`), an
 * optional `suggestion` (`sugestao`), what it `affects` (`afeta`), by which door (`origin`) and
 * tool call. §12.3 a question asked again over a decision has `precedentOf` and the asker's
 * `reason` (`motivo`), both present together or both absent, as on the wire.
 */
export interface Declaration {
  questionId: string;
  sessionId: string;
  sessionAuthorId: string;
  askedBy: QuestionAuthor;
  question: string;
  suggestion: string | null;
  affects: Affects;
  origin: QuestionOrigin;
  toolCallId: string | null;
  declaredAt: string;
  precedentOf?: string | null;
  reason?: string | null;
}

/**
 * The question's events (docs/decider-kit.md). A declaration also says its project (the wire
 * payload does not: the project is the stream); the answer and its decision are the §3.1 payloads.
 */
export type QuestionWasDeclared = DomainEvent<
  'question.declared',
  { projectId: string; declared: Declaration }
>;
/**
 * An answer (the wire's `question.answered`): the `answer` given (or the suggestion, when
 * `acceptedSuggestion`), `answeredFor` the session author always (the wire's `respondidaPor`),
 * `agentRole` the agent that recorded it (the wire's `viaAgente`; null for a click), §11.2 the
 * agent's chat session when given, §11.6 who clicked (`answeredBy`) and under which grant. The
 * optional fields are present only when the answer has them, as on the wire.
 */
export interface Answer {
  questionId: string;
  answer: string;
  acceptedSuggestion: boolean;
  decisionEventId: string;
  answeredFor: string;
  agentRole: AskerRole | null;
  agentSessionId?: string | null;
  answeredBy?: string | null;
  grantId?: string | null;
  answeredAt: string;
}

export type QuestionWasAnswered = DomainEvent<'question.answered', Answer>;
/**
 * A decision record (the wire's `decision.recorded`): the session author's `choice` on the
 * question (`context`), what it affects (`consequences`), `agentRole` the agent that recorded it
 * (the wire's `viaAgente`; null for a click or an amendment), the optional fields only when present.
 */
export interface DecisionRecord {
  decisionEventId: string;
  actor: UserActor;
  context: string;
  choice: string;
  consequences: Affects;
  questionId: string;
  agentRole: AskerRole | null;
  agentSessionId?: string | null;
  answeredBy?: string | null;
  grantId?: string | null;
  decidedAt: string;
}

export type DecisionWasRecorded = DomainEvent<'decision.recorded', DecisionRecord>;
/**
 * §11.5 a question withdrawn: who (the session author, or the agent that asked: its role), why,
 * and when (the wire's `question.withdrawn`, whose `motivo` is `reason`).
 */
export interface Withdrawal {
  questionId: string;
  by: Actor;
  reason: string;
  withdrawnAt: string;
}

/** §11.5 the question no longer needs the user: it decides nothing (no decision record). */
export type QuestionWasWithdrawn = DomainEvent<'question.withdrawn', Withdrawal>;
/**
 * §11.5 the session author's decision (`decisionEventId`, its `answer`) over the one an agent
 * recorded (`supersededDecisionEventId`, by the agent of `supersededAgentRole`): the wire's
 * `decision.superseded`, whose `resposta` is `answer` and `supersededViaAgente` the role.
 */
export interface Supersession {
  questionId: string;
  supersededDecisionEventId: string;
  supersededAgentRole: AskerRole;
  decisionEventId: string;
  answer: string;
  by: string;
  supersededAt: string;
}

/** §11.5 the session author's decision replaced the one an agent recorded (the new one is its own `decision.recorded`). */
export type DecisionWasSuperseded = DomainEvent<'decision.superseded', Supersession>;
/** §12.3 another asker's declaration joined this open question. */
export type QuestionWasJoined = DomainEvent<'question.joined', Join>;
/** §12.3 this decided question's decision was offered to an asker instead of a new question. */
export type PrecedentWasOffered = DomainEvent<'question.precedent_offered', PrecedentOffer>;
/** §12.3 the session author split a joined asker off into a question of its own. */
export type QuestionWasSplit = DomainEvent<'question.split', QuestionSplit>;
export type QuestionEvent =
  | QuestionWasJoined
  | PrecedentWasOffered
  | QuestionWasSplit
  | QuestionWasDeclared
  | QuestionWasAnswered
  | DecisionWasRecorded
  | QuestionWasWithdrawn
  | DecisionWasSuperseded;

/** Folds one event into the state; status is derived: open while neither answered nor withdrawn. */
export function evolve(state: Question | null, event: QuestionEvent): Question | null {
  switch (event.type) {
    case 'question.declared':
      return {
        projectId: event.data.projectId,
        declared: event.data.declared,
        answered: null,
        withdrawn: null,
        amended: null,
        joined: [],
      };
    case 'question.joined':
      return state ? { ...state, joined: [...state.joined, event.data] } : state;
    case 'question.split':
      return state
        ? { ...state, joined: state.joined.filter((j) => j.asker.toolCallId !== event.data.toolCallId) }
        : state;
    case 'question.precedent_offered':
      return state;
    case 'question.answered':
      return state ? { ...state, answered: event.data } : state;
    case 'question.withdrawn':
      return state ? { ...state, withdrawn: event.data } : state;
    case 'decision.superseded':
      return state ? { ...state, amended: event.data } : state;
    case 'decision.recorded':
      return state;
    default: {
      const unreachable: never = event;
      return unreachable;
    }
  }
}

export type QuestionStatusOf = 'open' | 'answered' | 'withdrawn';

export function statusOf(q: Question): QuestionStatusOf {
  return q.answered ? 'answered' : q.withdrawn ? 'withdrawn' : 'open';
}

/** What a door declares; the question's id is given by the command (a new one per declaration). */
export interface DeclareInput {
  sessionId: string;
  sessionAuthorId: string;
  askedBy: QuestionAuthor;
  question: string;
  suggestion?: string | null;
  affects: Affects;
  origin: QuestionOrigin;
  toolCallId?: string | null;
  /** §12.3 ask even though a decision already answers it (the wire's `insistir`), saying why (`reason`). */
  insist?: true;
  reason?: string;
  /** §12.3 set by the handler when the asker insisted over this decided question. */
  precedentOf?: string;
}

/**
 * The two doors of ADR 0214 §3 and ADR 0258: a click by a user, or an agent recording a chat answer.
 * §11.6 a click by someone other than the session author carries `grants`: the delegation grants
 * from the session author to the clicker in the project, folded from the delegation log in the
 * answer's own transaction (under the pair's lock, so a revocation cannot slip in between).
 */
export type AnswerCommand =
  | {
      by: 'user';
      userId: string;
      answer?: string;
      acceptSuggestion?: true;
      grants?: readonly Delegation[];
      /** §12.1 the project's `delegacao` policy, read with the grants (absent: off, the seeds' rule). */
      delegationOn?: boolean;
    }
  | { by: 'agent'; role: AskerRole; answer?: string | null; agentSessionId?: string | null };

/**
 * §11.5 the two doors of a withdrawal: the session author by click, or an asker's tool call (its
 * role and session); always with a why.
 */
export type WithdrawCommand = (
  { by: 'user'; userId: string } | { by: 'agent'; role: AskerRole; sessionId?: string | null }
) & {
  reason: string;
};

/** §11.5 the session author's own answer, superseding an agent's decision. */
export interface AmendCommand {
  userId: string;
  answer: string;
}

export type QuestionCommand =
  | { type: 'declare'; projectId: string; questionId: string; declaration: DeclareInput }
  | { type: 'answer'; projectId: string; decisionEventId: string; answer: AnswerCommand }
  | { type: 'withdraw'; projectId: string; withdrawal: WithdrawCommand }
  | { type: 'amend'; projectId: string; decisionEventId: string; amendment: AmendCommand }
  | AskOnceCommand;

export const NOT_FOUND = (): Refusal =>
  refusal(404, 'pergunta_nao_encontrada', 'no such question in this project');

const NOT_THE_AUTHOR = (verb: string): Refusal =>
  refusal(
    403,
    'so_o_autor_da_sessao',
    `only the author of the session where this question was born can ${verb} it`,
  );

const ALREADY_ANSWERED = (): Refusal =>
  refusal(409, 'pergunta_ja_respondida', 'this question has already been answered');

/** §11.6 the clicker's grant from the session author was revoked. */
const DELEGATION_REVOKED = (): Refusal =>
  refusal(403, 'delegacao_revogada', 'the session author revoked your delegation to answer for them');

/** §11.6 the clicker's grant from the session author is past its `until`. */
const DELEGATION_EXPIRED = (): Refusal =>
  refusal(403, 'delegacao_expirada', 'your delegation to answer for the session author has expired');

/**
 * §11.6 what a clicker's grants from the session author say at `now`: only the grants of this
 * project, from this author, to this clicker count, whatever the caller handed over.
 */
function standingFor(question: Question, userId: string, grants: readonly Delegation[], now: Date): Standing {
  const { sessionAuthorId } = question.declared;
  return standingOf(
    grants.filter(
      (g) =>
        g.granted.projectId === question.projectId &&
        g.granted.from === sessionAuthorId &&
        g.granted.to === userId,
    ),
    now,
  );
}

/** §12.1 only the agent that asked (its role, in its session) withdraws by tool: an answer is what frees the user. */
const NOT_THE_ASKER = (): Refusal =>
  refusal(
    403,
    'so_quem_perguntou',
    'only the agent that asked this question (same role, same session) can withdraw it; the session author can too',
  );

/** §11.5 [openq] a withdrawn question is never answered afterwards, by either door. */
export const WITHDRAWN = (): Refusal =>
  refusal(409, 'pergunta_retirada', 'this question was withdrawn: it no longer needs an answer');

/** §11.5 only a decision an agent recorded may be superseded, and only once. */
const NOT_AN_AGENT_DECISION = (why: string): Refusal =>
  refusal(409, 'decisao_nao_e_de_agente', `only a decision an agent recorded can be amended: ${why}`);

/** A declaration is never refused here (the DTOs validated it); declaring an existing question changes nothing. */
function decideDeclare(
  command: Extract<QuestionCommand, { type: 'declare' }>,
  state: Question | null,
  now: Date,
): QuestionEvent[] {
  if (state) return [];
  const input = command.declaration;
  const declared: Declaration = {
    questionId: command.questionId,
    sessionId: input.sessionId,
    sessionAuthorId: input.sessionAuthorId,
    askedBy: input.askedBy,
    question: input.question,
    suggestion: input.suggestion ?? null,
    affects: {
      rules: [...input.affects.rules],
      stories: [...input.affects.stories],
      tasks: [...input.affects.tasks],
    },
    origin: input.origin,
    toolCallId: input.toolCallId ?? null,
    declaredAt: now.toISOString(),
    ...(input.precedentOf ? { precedentOf: input.precedentOf, reason: input.reason ?? null } : {}),
  };
  return [{ type: 'question.declared', data: { projectId: command.projectId, declared }, occurredAt: now }];
}

/**
 * §12.3 what the decision affects: the question's `affects` and that of every asker that joined it
 * and was not split off (each id once, the declaration's first). One answer closes the question
 * for all of them, so the decision must reach each one's work (the dev kickoff and the QA cut link
 * decisions by `consequences`); a joined asker's items may go beyond the first asker's. Each list
 * keeps the wire's ceiling (`AFETA_MAX_IDS`): past it, the later askers' extra ids are left out.
 */
export function affectedByAll(question: Pick<Question, 'declared' | 'joined'>): Affects {
  const { affects } = question.declared;
  if (question.joined.length === 0) return affects;
  const union = (key: keyof Affects) =>
    [...new Set([affects[key], ...question.joined.map((j) => j.asked.affects[key])].flat())].slice(
      0,
      AFETA_MAX_IDS,
    );
  return { rules: union('rules'), stories: union('stories'), tasks: union('tasks') };
}

/**
 * The one answering rule for both doors. Order of checks for a click: 404 (a question of another
 * project is the same 404), 403 not the session author — unless (§11.6) the author has a live
 * grant to the clicker (else 403 `delegacao_revogada` / `delegacao_expirada` for the newest grant,
 * `so_o_autor_da_sessao` with none; §12.1 any grant while the project's delegation is off: 403
 * `delegacao_desligada`) — 409 already answered, 409 withdrawn
 * (`pergunta_retirada`), 400 no suggestion to accept. For an agent: 404, already closed — answered
 * or (§12.1, ADR 0258 item 4: never a conflict) withdrawn — is not an error: no events, the
 * closing stands and `answerOutcome` says which; 400 neither `resposta` nor a suggestion. `respondidaPor` is always the session
 * author; a click also says who clicked (`answeredBy`) and, for a delegate, the grant (`grantId`).
 */
function decideAnswer(
  { projectId, decisionEventId, answer: command }: Extract<QuestionCommand, { type: 'answer' }>,
  question: Question | null,
  now: Date,
): Decision<QuestionEvent> {
  if (!question || question.projectId !== projectId) return NOT_FOUND();
  const { declared } = question;
  let grantId: string | null = null;
  if (command.by === 'user' && command.userId !== declared.sessionAuthorId) {
    const standing = standingFor(question, command.userId, command.grants ?? [], now);
    if (standing.kind === 'none') return NOT_THE_AUTHOR('answer');
    if (command.delegationOn !== true) return DELEGATION_OFF(403);
    if (standing.kind === 'revoked') return DELEGATION_REVOKED();
    if (standing.kind === 'expired') return DELEGATION_EXPIRED();
    grantId = standing.grant.grantId;
  }
  if (question.answered) {
    if (command.by === 'agent') return [];
    return ALREADY_ANSWERED();
  }
  if (question.withdrawn) return command.by === 'agent' ? [] : WITHDRAWN();
  const explicit = command.answer ?? null;
  const wantsSuggestion = command.by === 'user' ? command.acceptSuggestion === true : explicit === null;
  if (wantsSuggestion && !declared.suggestion) {
    return command.by === 'user'
      ? refusal(400, 'sem_sugestao', 'this question has no suggestion to accept')
      : refusal(400, 'sem_resposta_nem_sugestao', 'no resposta was given and the question has no suggestion');
  }
  const answerText = wantsSuggestion ? declared.suggestion! : explicit!;
  const viaAgent = command.by === 'agent' ? command.role : null;
  // §11.2 the agent's chat session, for the audit trail, only when given: a click's events are unchanged.
  const session =
    command.by === 'agent' && command.agentSessionId ? { agentSessionId: command.agentSessionId } : {};
  // §11.6 who clicked, and under which grant for a delegate; an agent's answer has neither.
  const clicker =
    command.by === 'user' ? { answeredBy: command.userId, ...(grantId ? { grantId } : {}) } : {};
  const at = now.toISOString();
  const answered: Answer = {
    questionId: declared.questionId,
    answer: answerText,
    acceptedSuggestion: wantsSuggestion,
    decisionEventId,
    answeredFor: declared.sessionAuthorId,
    agentRole: viaAgent,
    ...session,
    ...clicker,
    answeredAt: at,
  };
  const decision: DecisionRecord = {
    decisionEventId,
    actor: { kind: 'user', id: declared.sessionAuthorId },
    context: declared.question,
    choice: answerText,
    consequences: affectedByAll(question),
    questionId: declared.questionId,
    agentRole: viaAgent,
    ...session,
    ...clicker,
    decidedAt: at,
  };
  return [
    { type: 'question.answered', data: answered, occurredAt: now },
    { type: 'decision.recorded', data: decision, occurredAt: now },
  ];
}

/**
 * §11.5 withdrawing, by either door. Order of checks for a click: 404, 403 not the session author,
 * 409 already answered; for an agent: 404, §12.1 403 `so_quem_perguntou` unless it is the agent
 * that asked (the declaration's `askedBy` and `sessionId`: a QA or analyst question is never an
 * asker's to drop, and a gate parked on it resumes only by an answer or its author), 409 answered. A question already withdrawn decides no events: the first withdrawal stands and the
 * caller is told so (`withdrawOutcome`), never a conflict.
 */
function decideWithdraw(
  { projectId, withdrawal }: Extract<QuestionCommand, { type: 'withdraw' }>,
  question: Question | null,
  now: Date,
): Decision<QuestionEvent> {
  if (!question || question.projectId !== projectId) return NOT_FOUND();
  const { declared } = question;
  if (withdrawal.by === 'user' && withdrawal.userId !== declared.sessionAuthorId)
    return NOT_THE_AUTHOR('withdraw');
  if (
    withdrawal.by === 'agent' &&
    (withdrawal.role !== declared.askedBy || withdrawal.sessionId !== declared.sessionId)
  )
    return NOT_THE_ASKER();
  if (question.answered) return ALREADY_ANSWERED();
  if (question.withdrawn) return [];
  const by =
    withdrawal.by === 'user'
      ? { kind: 'user' as const, id: withdrawal.userId }
      : { kind: 'agent' as const, id: withdrawal.role };
  return [
    {
      type: 'question.withdrawn',
      data: {
        questionId: declared.questionId,
        by,
        reason: withdrawal.reason,
        withdrawnAt: now.toISOString(),
      },
      occurredAt: now,
    },
  ];
}

/**
 * §11.5 the session author supersedes the decision an agent recorded with their own answer. Order
 * of checks: 404, 403 not the session author, then 409 `decisao_nao_e_de_agente` for a question
 * with no agent decision standing (open, withdrawn, answered by a click, or already amended). The
 * same `resposta` again after an amendment decides no events: the amendment stands (a retried
 * click), never a conflict. Two events, in this order: the new decision's `decision.recorded`
 * (a user decision, `viaAgente` null, §12.3 what all its askers affect) and `decision.superseded` linking
 * the two, both at `now` (the handler never passes a `now` before the superseded answer: see
 * `amendInstant`, so "newest first", the context service's rule, picks the new decision).
 */
function decideAmend(
  { projectId, decisionEventId, amendment }: Extract<QuestionCommand, { type: 'amend' }>,
  question: Question | null,
  now: Date,
): Decision<QuestionEvent> {
  if (!question || question.projectId !== projectId) return NOT_FOUND();
  const { declared, answered, amended } = question;
  if (amendment.userId !== declared.sessionAuthorId) return NOT_THE_AUTHOR('amend');
  if (amended) {
    if (amended.answer === amendment.answer) return [];
    return NOT_AN_AGENT_DECISION('this decision was already amended by the session author');
  }
  if (!answered) {
    return NOT_AN_AGENT_DECISION(question.withdrawn ? 'the question was withdrawn' : 'the question is open');
  }
  const supersededAgentRole = answered.agentRole;
  if (supersededAgentRole === null) return NOT_AN_AGENT_DECISION('the session author answered it by click');
  const decidedAt = now.toISOString();
  const decision: DecisionRecord = {
    decisionEventId,
    actor: { kind: 'user', id: declared.sessionAuthorId },
    context: declared.question,
    choice: amendment.answer,
    consequences: affectedByAll(question),
    questionId: declared.questionId,
    agentRole: null,
    decidedAt,
  };
  const superseded: Supersession = {
    questionId: declared.questionId,
    supersededDecisionEventId: answered.decisionEventId,
    supersededAgentRole,
    decisionEventId,
    answer: amendment.answer,
    by: amendment.userId,
    supersededAt: decidedAt,
  };
  return [
    { type: 'decision.recorded', data: decision, occurredAt: now },
    { type: 'decision.superseded', data: superseded, occurredAt: now },
  ];
}

export function decide(command: QuestionCommand, state: Question | null, now: Date): Decision<QuestionEvent> {
  switch (command.type) {
    case 'declare':
      return decideDeclare(command, state, now);
    case 'answer':
      return decideAnswer(command, state, now);
    case 'withdraw':
      return decideWithdraw(command, state, now);
    case 'amend':
      return decideAmend(command, state, now);
    case 'join':
      return decideJoin(command, state, now);
    case 'offer_precedent':
      return decideOfferPrecedent(command, state, now);
    case 'split':
      return decideSplit(command, state, now);
    default: {
      const unknownCommand: never = command;
      return unknownCommand;
    }
  }
}

/** A question on the decider kit; `null` is a question never declared. */
export const question: Decider<QuestionCommand, Question | null, QuestionEvent> = {
  initialState: null,
  decide,
  evolve,
};

/**
 * What an accepted answer command did, for the doors' replies: answered now, or the first answer
 * stands, or (an agent's only, §12.1) the question had been withdrawn.
 */
export type AnswerOutcome =
  | { kind: 'answered'; answered: Answer; decision: DecisionRecord }
  | { kind: 'already_answered'; answered: Answer }
  | { kind: 'already_withdrawn'; withdrawn: Withdrawal };

/** Reads the outcome from the events an answer decided (none: the question was already closed). */
export function answerOutcome(before: Question | null, events: readonly QuestionEvent[]): AnswerOutcome {
  const answered = events.find((e): e is QuestionWasAnswered => e.type === 'question.answered');
  const decision = events.find((e): e is DecisionWasRecorded => e.type === 'decision.recorded');
  if (answered && decision) return { kind: 'answered', answered: answered.data, decision: decision.data };
  if (before?.answered) return { kind: 'already_answered', answered: before.answered };
  if (before?.withdrawn) return { kind: 'already_withdrawn', withdrawn: before.withdrawn };
  throw new Error('an answer was accepted, but decided no answer for an open question');
}

/** What an accepted withdrawal did: withdrawn now, or an earlier withdrawal stands. */
export type WithdrawOutcome = { kind: 'withdrawn' | 'already_withdrawn'; withdrawn: Withdrawal };

/** Reads the outcome from the events a withdrawal decided (none: the question was already withdrawn). */
export function withdrawOutcome(before: Question | null, events: readonly QuestionEvent[]): WithdrawOutcome {
  const withdrawn = events.find((e): e is QuestionWasWithdrawn => e.type === 'question.withdrawn');
  if (withdrawn) return { kind: 'withdrawn', withdrawn: withdrawn.data };
  if (!before?.withdrawn)
    throw new Error('a withdrawal was accepted, but decided nothing for an open question');
  return { kind: 'already_withdrawn', withdrawn: before.withdrawn };
}

/** What an accepted amendment did: superseded now, or the same amendment already stood. */
export type AmendOutcome = { kind: 'amended' | 'already_amended'; superseded: Supersession };

/** Reads the outcome from the events an amendment decided (none: the same amendment already stood). */
export function amendOutcome(before: Question | null, events: readonly QuestionEvent[]): AmendOutcome {
  const superseded = events.find((e): e is DecisionWasSuperseded => e.type === 'decision.superseded');
  if (superseded) return { kind: 'amended', superseded: superseded.data };
  if (!before?.amended) throw new Error('an amendment was accepted, but decided nothing');
  return { kind: 'already_amended', superseded: before.amended };
}

/** §11.5 whether `userId` may amend the standing decision: the session author, over an agent's. */
export function canAmend(question: Question, userId: string): boolean {
  return (
    userId === question.declared.sessionAuthorId &&
    question.answered !== null &&
    question.answered.agentRole !== null &&
    question.amended === null
  );
}

/**
 * §3.3 whether `userId` may answer here, and if not, why (said once, in words). §11.5 the same
 * person, on the same open question, may withdraw it instead.
 */
export function answerability(
  question: Question,
  userId: string,
  grants: readonly Delegation[] = [],
  now?: Date,
): { canAnswer: boolean; inertReason: string | null; answeringAs?: AnsweringAs } {
  if (question.answered) return { canAnswer: false, inertReason: 'Already answered.' };
  if (question.withdrawn)
    return { canAnswer: false, inertReason: 'Withdrawn: it no longer needs an answer.' };
  if (userId !== question.declared.sessionAuthorId) {
    // §11.6 a live grant from the session author lets this person answer for them.
    const standing = now ? standingFor(question, userId, grants, now) : null;
    if (standing?.kind === 'live') {
      const { from, grantId, until } = standing.grant;
      return { canAnswer: true, inertReason: null, answeringAs: { userId: from, grantId, until } };
    }
    return {
      canAnswer: false,
      inertReason: `Only ${question.declared.sessionAuthorId}, who led the session where this question was born, can answer it.`,
    };
  }
  return { canAnswer: true, inertReason: null };
}

/** §11.6 for whom a delegate answers, under which grant, until when. */
export interface AnsweringAs {
  userId: string;
  grantId: string;
  until: string;
}
