import {
  refusal,
  type AskerRole,
  type DecisionRecorded,
  type QuestionAnswered,
  type QuestionDeclared,
  type Refusal,
} from '@openq/contracts';

/** A question folded from its log: declared once, answered at most once. */
export interface Question {
  projectId: string;
  declared: QuestionDeclared;
  answered: QuestionAnswered | null;
}

export type QuestionLogEvent =
  | { type: 'question.declared'; data: QuestionDeclared }
  | { type: 'question.answered'; data: QuestionAnswered }
  | { type: 'decision.recorded'; data: DecisionRecorded };

/** Folds one log event into the state; status is derived: open while `answered` is null. */
export function evolve(state: Question | null, projectId: string, event: QuestionLogEvent): Question | null {
  switch (event.type) {
    case 'question.declared':
      return { projectId, declared: event.data, answered: null };
    case 'question.answered':
      return state ? { ...state, answered: event.data } : state;
    case 'decision.recorded':
      return state;
    default: {
      const unreachable: never = event;
      return unreachable;
    }
  }
}

export type QuestionStatusOf = 'open' | 'answered';

export function statusOf(q: Question): QuestionStatusOf {
  return q.answered ? 'answered' : 'open';
}

export interface DeclareInput {
  questionId: string;
  sessionId: string;
  sessionAuthorId: string;
  autor: QuestionDeclared['autor'];
  pergunta: string;
  sugestao?: string | null;
  afeta: QuestionDeclared['afeta'];
  origin: QuestionDeclared['origin'];
  toolCallId?: string | null;
}

export function decideDeclare(input: DeclareInput, now: Date): QuestionDeclared {
  return {
    questionId: input.questionId,
    sessionId: input.sessionId,
    sessionAuthorId: input.sessionAuthorId,
    autor: input.autor,
    pergunta: input.pergunta,
    sugestao: input.sugestao ?? null,
    afeta: {
      regras: [...input.afeta.regras],
      historias: [...input.afeta.historias],
      tarefas: [...input.afeta.tarefas],
    },
    origin: input.origin,
    toolCallId: input.toolCallId ?? null,
    declaredAt: now.toISOString(),
  };
}

/** The two doors of ADR 0214 §3 and ADR 0258: a click by a user, or an agent recording a chat answer. */
export type AnswerCommand =
  | { by: 'user'; userId: string; resposta?: string; aceitarSugestao?: true }
  | { by: 'agent'; viaAgente: AskerRole; resposta?: string | null; agentSessionId?: string | null };

export type AnswerDecision =
  | { kind: 'answered'; answered: QuestionAnswered; decision: DecisionRecorded }
  | { kind: 'already_answered'; answered: QuestionAnswered }
  | Refusal;

export const NOT_FOUND = (): Refusal =>
  refusal(404, 'pergunta_nao_encontrada', 'no such question in this project');

/**
 * The one answering rule for both doors. Order of checks for a click: 404 (a question of another
 * project is the same 404), 403 not the session author, 409 already answered, 400 no suggestion
 * to accept. For an agent: 404, already answered (not an error: the first answer stands), 400
 * neither `resposta` nor a suggestion. `respondidaPor` is always the session author.
 */
export function decideAnswer(
  command: AnswerCommand,
  question: Question | null,
  projectId: string,
  decisionEventId: string,
  now: Date,
): AnswerDecision {
  if (!question || question.projectId !== projectId) return NOT_FOUND();
  const { declared } = question;
  if (command.by === 'user' && command.userId !== declared.sessionAuthorId) {
    return refusal(
      403,
      'so_o_autor_da_sessao',
      'only the author of the session where this question was born can answer it',
    );
  }
  if (question.answered) {
    if (command.by === 'agent') return { kind: 'already_answered', answered: question.answered };
    return refusal(409, 'pergunta_ja_respondida', 'this question has already been answered');
  }
  const explicit = command.resposta ?? null;
  const wantsSuggestion = command.by === 'user' ? command.aceitarSugestao === true : explicit === null;
  if (wantsSuggestion && !declared.sugestao) {
    return command.by === 'user'
      ? refusal(400, 'sem_sugestao', 'this question has no suggestion to accept')
      : refusal(400, 'sem_resposta_nem_sugestao', 'no resposta was given and the question has no suggestion');
  }
  const resposta = wantsSuggestion ? declared.sugestao! : explicit!;
  const viaAgente = command.by === 'agent' ? command.viaAgente : null;
  // §11.2 the agent's chat session, for the audit trail, only when given: a click's events are unchanged.
  const session =
    command.by === 'agent' && command.agentSessionId ? { agentSessionId: command.agentSessionId } : {};
  const at = now.toISOString();
  const answered: QuestionAnswered = {
    questionId: declared.questionId,
    resposta,
    aceitouSugestao: wantsSuggestion,
    decisionEventId,
    respondidaPor: declared.sessionAuthorId,
    viaAgente,
    ...session,
    answeredAt: at,
  };
  const decision: DecisionRecorded = {
    decisionEventId,
    actor: { kind: 'user', id: declared.sessionAuthorId },
    context: declared.pergunta,
    choice: resposta,
    consequences: declared.afeta,
    questionId: declared.questionId,
    viaAgente,
    ...session,
    decidedAt: at,
  };
  return { kind: 'answered', answered, decision };
}

/** §3.3 whether `userId` may answer here, and if not, why (said once, in words). */
export function answerability(
  question: Question,
  userId: string,
): { canAnswer: boolean; inertReason: string | null } {
  if (question.answered) return { canAnswer: false, inertReason: 'Already answered.' };
  if (userId !== question.declared.sessionAuthorId) {
    return {
      canAnswer: false,
      inertReason: `Only ${question.declared.sessionAuthorId}, who led the session where this question was born, can answer it.`,
    };
  }
  return { canAnswer: true, inertReason: null };
}
