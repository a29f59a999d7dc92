import type { GateEvent, GateName, NextAction, PendingChange, QuestionToDeclare } from '../domain/gate-cycle';
import type { Verdict } from '../domain/consolidate';

/**
 * The past of a gate cycle as domain events, for `given(...)` in the decider specs: task `t1` of
 * project `p1`, step `s` of the clock is `T0 + s` seconds.
 */
export const T0 = Date.UTC(2026, 0, 1);
export const at = (s: number) => new Date(T0 + s * 1000);

export interface Ref {
  gate?: GateName;
}
const ref = (gate: GateName = 'qa') => ({ taskId: 't1', gate });

export const cycleStarted = (
  step = 0,
  o: Ref & { sessionAuthorId?: string; maxCorrections?: number; restarted?: boolean } = {},
): GateEvent => ({
  type: 'gate.cycle_started',
  data: {
    projectId: 'p1',
    ...ref(o.gate),
    sessionAuthorId: o.sessionAuthorId ?? 'u-exec',
    maxCorrections: o.maxCorrections ?? 3,
    restarted: o.restarted ?? false,
  },
  occurredAt: at(step),
});

export interface RoundOutcome extends Ref {
  verdict: Verdict;
  correctionCount?: number;
  maxCorrections?: number;
  nextAction: NextAction;
  blockedReason?: string | null;
  pendingChanges?: PendingChange[];
}

/** A recorded round: the internal `gate.round_recorded` and the published `gate.verdict_recorded`. */
export const roundRecorded = (step: number, roundId: string, o: RoundOutcome): GateEvent[] => {
  const outcome = {
    verdict: o.verdict,
    correctionCount: o.correctionCount ?? 0,
    maxCorrections: o.maxCorrections ?? 3,
    nextAction: o.nextAction,
  };
  return [
    {
      type: 'gate.round_recorded',
      data: {
        ...ref(o.gate),
        roundId,
        ...outcome,
        blockedReason: o.blockedReason ?? null,
        pendingChanges: o.pendingChanges ?? [],
      },
      occurredAt: at(step),
    },
    { type: 'gate.verdict_recorded', data: { ...ref(o.gate), ...outcome }, occurredAt: at(step) },
  ];
};

/** A round that asked for changes, the count after it `correctionCount`. */
export const changesRequested = (
  step: number,
  roundId: string,
  correctionCount: number,
  maxCorrections = 3,
) =>
  roundRecorded(step, roundId, {
    verdict: 'changes_requested',
    correctionCount,
    maxCorrections,
    nextAction: 'correct',
  });

/** A round refused because it cites a question the project does not have (§11.1). */
export const verdictRejected = (
  step: number,
  roundId: string,
  questionId: string,
  o: Ref = {},
): GateEvent => ({
  type: 'gate.verdict_rejected',
  data: { ...ref(o.gate), roundId, reason: 'pergunta_nao_encontrada', questionId },
  occurredAt: at(step),
});

/** A question a round declares, keyed as the decider keys it (`roundId:subspecialty`). */
export const toDeclare = (
  roundId: string,
  subspecialty: string,
  question: string,
  suggestion: string | null = null,
): QuestionToDeclare => ({ key: `${roundId}:${subspecialty}`, subspecialty, question, suggestion });

export const questionsRequested = (
  step: number,
  roundId: string,
  o: Ref & { declare?: QuestionToDeclare[]; link?: string[]; sessionAuthorId?: string } = {},
): GateEvent => ({
  type: 'gate.questions_requested',
  data: {
    ...ref(o.gate),
    request: {
      roundId,
      sessionAuthorId: o.sessionAuthorId ?? 'u-exec',
      role: 'qa-agent',
      origin: 'qa_verdict',
      affects: { rules: [], stories: [], tasks: ['t1'] },
      declare: o.declare ?? [],
      link: o.link ?? [],
    },
  },
  occurredAt: at(step),
});

/** A round that parks on a decision, its questions not linked yet. */
export const askedForDecision = (
  step: number,
  roundId: string,
  o: Ref & {
    declare?: QuestionToDeclare[];
    link?: string[];
    sessionAuthorId?: string;
    correctionCount?: number;
    pendingChanges?: PendingChange[];
  } = {},
): GateEvent[] => [
  ...roundRecorded(step, roundId, {
    gate: o.gate,
    verdict: 'needs_user_decision',
    correctionCount: o.correctionCount,
    nextAction: 'parked',
    pendingChanges: o.pendingChanges,
  }),
  questionsRequested(step, roundId, o),
];

export const questionsLinked = (
  step: number,
  roundId: string,
  questionIds: string[],
  o: Ref & { answered?: Record<string, string>; withdrawn?: string[] } = {},
): GateEvent => ({
  type: 'gate.questions_linked',
  data: { ...ref(o.gate), roundId, questionIds, answered: o.answered ?? {}, withdrawn: o.withdrawn ?? [] },
  occurredAt: at(step),
});

export const rescueParkedOnDecision = (step: number, questionIds: string[], o: Ref = {}): GateEvent => {
  const n = questionIds.length;
  return {
    type: 'gate.rescue_parked',
    data: {
      ...ref(o.gate),
      reason: 'user_decision',
      questionIds,
      why: `waiting for the user's decision on ${n} open question${n === 1 ? '' : 's'}`,
    },
    occurredAt: at(step),
  };
};

export const parkedIdle = (step: number, ageSeconds: number, limit = 7200, o: Ref = {}): GateEvent => ({
  type: 'gate.rescue_parked',
  data: {
    ...ref(o.gate),
    reason: 'idle',
    questionIds: [],
    ageSeconds,
    why: `no agent activity for ${ageSeconds} s (limit ${limit} s)`,
  },
  occurredAt: at(step),
});

export const questionAnswered = (
  step: number,
  questionId: string,
  decisionEventId: string,
  o: Ref = {},
): GateEvent => ({
  type: 'gate.question_answered',
  data: { ...ref(o.gate), questionId, decisionEventId },
  occurredAt: at(step),
});

/** §11.5 */
export const questionWithdrawn = (step: number, questionId: string, o: Ref = {}): GateEvent => ({
  type: 'gate.question_withdrawn',
  data: { ...ref(o.gate), questionId },
  occurredAt: at(step),
});

export const redispatchRequested = (step: number, ageSeconds: number, o: Ref = {}): GateEvent => ({
  type: 'gate.redispatch_requested',
  data: { ...ref(o.gate), ageSeconds },
  occurredAt: at(step),
});

export const activityRecorded = (step: number, o: Ref = {}): GateEvent => ({
  type: 'gate.activity_recorded',
  data: ref(o.gate),
  occurredAt: at(step),
});

export const resumed = (
  step: number,
  o: Ref & {
    trigger: 'answer' | 'human' | 'override' | 'withdrawn';
    questionIds?: string[];
    decisionEventIds?: string[];
    pendingChanges?: PendingChange[];
    withdrawnQuestionIds?: string[];
    by?: string;
    why?: string;
  },
): GateEvent => ({
  type: 'gate.resumed',
  data: {
    ...ref(o.gate),
    trigger: o.trigger,
    questionIds: o.questionIds ?? [],
    decisionEventIds: o.decisionEventIds ?? [],
    pendingChanges: o.pendingChanges ?? [],
    ...(o.withdrawnQuestionIds !== undefined ? { withdrawnQuestionIds: o.withdrawnQuestionIds } : {}),
    ...(o.by !== undefined ? { by: o.by } : {}),
    ...(o.why !== undefined ? { why: o.why } : {}),
  },
  occurredAt: at(step),
});

/** Started at 0, a round parked at 1 on questions linked at 2 and still open. */
export const parkedOnDecision = (
  questionIds: string[],
  o: Ref & { roundId?: string; declare?: QuestionToDeclare[]; pendingChanges?: PendingChange[] } = {},
): GateEvent[] => {
  const roundId = o.roundId ?? 'r1';
  return [
    cycleStarted(0, o),
    ...askedForDecision(1, roundId, o),
    questionsLinked(2, roundId, questionIds, o),
    rescueParkedOnDecision(2, questionIds, o),
  ];
};
