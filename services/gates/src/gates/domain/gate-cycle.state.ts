import type {
  GateEvent,
  GateName,
  NextAction,
  ParkedReason,
  PendingChange,
  QuestionRequest,
} from './gate-cycle.events';

export const DEFAULT_MAX_CORRECTIONS = 3;
export const CORRECTION_CYCLE_EXHAUSTED = 'correction cycle exhausted';

export type CycleStatus = 'running' | 'approved' | 'changes_requested' | 'blocked' | 'parked';

export interface GateCycle {
  projectId: string;
  taskId: string;
  gate: GateName;
  status: CycleStatus;
  parkedReason: ParkedReason | null;
  correctionCount: number;
  maxCorrections: number;
  /** Open questions the current park waits on. */
  questionIds: readonly string[];
  /** Every question of the current park, answered or not (the `gate.resumed` payload). */
  linkedQuestionIds: readonly string[];
  /** questionId → decisionEventId; also answers that arrived before the cycle linked the question. */
  answeredQuestions: Readonly<Record<string, string>>;
  /** §11.5 questions heard withdrawn (like answers, also before the cycle linked them). */
  withdrawnQuestions: readonly string[];
  /** Questions asked by a round and not linked yet (the handler retries the link from here). */
  pendingQuestionRequest: QuestionRequest | null;
  pendingChanges: readonly PendingChange[];
  processedRoundIds: readonly string[];
  sessionAuthorId: string;
  lastActivityAt: Date;
  lastRedispatchAt: Date | null;
  blockedReason: string | null;
  updatedAt: Date;
}

const STATUS_AFTER: Record<NextAction, CycleStatus> = {
  correct: 'changes_requested',
  run_secops: 'approved',
  done: 'approved',
  blocked: 'blocked',
  parked: 'parked',
};

const UNPARKED = {
  parkedReason: null,
  questionIds: [],
  linkedQuestionIds: [],
  pendingQuestionRequest: null,
} as const;

/** Folds one event into the cycle; `null` is a cycle that has not started. */
export function evolve(state: GateCycle | null, event: GateEvent): GateCycle | null {
  const at = event.occurredAt;
  if (event.type === 'gate.cycle_started') {
    const { projectId, taskId, gate, sessionAuthorId, maxCorrections } = event.data;
    const kept = state ?? {
      correctionCount: 0,
      answeredQuestions: {},
      withdrawnQuestions: [],
      processedRoundIds: [],
      pendingChanges: [],
    };
    return {
      ...kept,
      ...UNPARKED,
      projectId,
      taskId,
      gate,
      sessionAuthorId,
      maxCorrections,
      status: 'running',
      lastActivityAt: at,
      lastRedispatchAt: null,
      blockedReason: null,
      updatedAt: at,
    };
  }
  if (state === null) return null;
  const next = { ...state, updatedAt: at };
  switch (event.type) {
    case 'gate.activity_recorded':
      return { ...next, lastActivityAt: at };
    case 'gate.round_recorded': {
      const { roundId, correctionCount, maxCorrections, nextAction, blockedReason, pendingChanges } =
        event.data;
      const parked = nextAction === 'parked';
      return {
        ...next,
        ...UNPARKED,
        status: STATUS_AFTER[nextAction],
        parkedReason: parked ? 'user_decision' : null,
        correctionCount,
        maxCorrections,
        blockedReason,
        pendingChanges,
        processedRoundIds: [...state.processedRoundIds, roundId],
        lastActivityAt: at,
      };
    }
    case 'gate.questions_requested':
      return { ...next, pendingQuestionRequest: event.data.request };
    case 'gate.questions_linked': {
      const answeredQuestions = { ...state.answeredQuestions, ...event.data.answered };
      const withdrawnQuestions = [...new Set([...state.withdrawnQuestions, ...event.data.withdrawn])];
      return {
        ...next,
        pendingQuestionRequest: null,
        answeredQuestions,
        withdrawnQuestions,
        linkedQuestionIds: event.data.questionIds,
        questionIds: event.data.questionIds.filter(
          (id) => !(id in answeredQuestions) && !withdrawnQuestions.includes(id),
        ),
      };
    }
    case 'gate.question_withdrawn': {
      const { questionId } = event.data;
      return {
        ...next,
        withdrawnQuestions: [...state.withdrawnQuestions, questionId],
        questionIds: state.questionIds.filter((id) => id !== questionId),
      };
    }
    case 'gate.question_answered': {
      const { questionId, decisionEventId } = event.data;
      return {
        ...next,
        answeredQuestions: { ...state.answeredQuestions, [questionId]: decisionEventId },
        questionIds: state.questionIds.filter((id) => id !== questionId),
      };
    }
    case 'gate.rescue_parked':
      return { ...next, status: 'parked', parkedReason: event.data.reason };
    case 'gate.resumed':
      return { ...next, ...UNPARKED, status: 'running', lastActivityAt: at, lastRedispatchAt: null };
    case 'gate.redispatch_requested':
      return { ...next, lastRedispatchAt: at };
    case 'gate.verdict_rejected':
      // The round is spent (the same round again changes nothing) and was activity; nothing else moves.
      return {
        ...next,
        processedRoundIds: [...state.processedRoundIds, event.data.roundId],
        lastActivityAt: at,
      };
    case 'gate.verdict_recorded':
      return next;
    default: {
      const unknownEvent: never = event;
      return unknownEvent;
    }
  }
}

/**
 * §12.1 who is looking: `userId`, and the session authors they may answer for now (`answersFor`:
 * their live grants while the project's delegation is on). No viewer: the cycle waits for no one here.
 */
export interface Viewer {
  userId: string;
  answersFor: readonly string[];
}

/** Parked on the user's decision, and (§12.1, personal) the viewer is who can unlock it: the session author or their delegate. */
export function waitingForYou(state: GateCycle, viewer: Viewer | null): boolean {
  if (state.status !== 'parked' || state.parkedReason !== 'user_decision' || !viewer) return false;
  return viewer.userId === state.sessionAuthorId || viewer.answersFor.includes(state.sessionAuthorId);
}

/** The item of `GET /projects/:projectId/tasks/:taskId/gates` (SPEC §4), as `viewer` sees it. */
export function gateView(state: GateCycle, viewer: Viewer | null) {
  return {
    gate: state.gate,
    state: state.status,
    parkedReason: state.parkedReason,
    questionIds: [...state.questionIds],
    correctionCount: state.correctionCount,
    maxCorrections: state.maxCorrections,
    waitingForYou: waitingForYou(state, viewer),
    updatedAt: state.updatedAt.toISOString(),
  };
}
