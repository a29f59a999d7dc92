import { refusal, type Decider, type Decision } from '@openq/contracts';
import type { CitedQuestion, GateEvent, GateName, PendingChange } from './gate-cycle.events';
import { DEFAULT_MAX_CORRECTIONS, evolve, type GateCycle } from './gate-cycle.state';
import {
  citedQuestionIds,
  isValidMaxCorrections,
  roundEvents,
  roundParks,
  unknownCitation,
  validateRound,
  type SubspecialtyVerdict,
} from './record-round';

export * from './gate-cycle.events';
export * from './gate-cycle.state';
export {
  answeredCitations,
  citedQuestionIds,
  countCorrections,
  nextAction,
  withdrawnCitations,
  type SubspecialtyVerdict,
} from './record-round';

interface CycleKey {
  projectId: string;
  taskId: string;
  gate: GateName;
}

/** Fields that create a cycle when the first message about it is a start or a verdict. */
interface Creating extends CycleKey {
  sessionAuthorId: string;
  /** From the message; wins over the cycle's value. */
  maxCorrections?: number;
  /** The deployment's default (`GATE_MAX_CORRECTIONS`), used only when a cycle is created. */
  defaultMaxCorrections?: number;
}

interface RoundData extends Creating {
  roundId: string;
  verdicts: readonly SubspecialtyVerdict[];
  /**
   * §11.1 what is known of each question the round cites (`citationsToCheck`); a cited question
   * missing here counts as absent.
   */
  citations?: Readonly<Record<string, CitedQuestion>>;
}

/** The questions a round links, and those of them already answered or withdrawn (heard, or asked of the owner). */
interface LinkData {
  roundId: string;
  questionIds: readonly string[];
  answered?: Readonly<Record<string, string>>;
  withdrawn?: readonly string[];
}

export type GateCommand =
  | { type: 'start'; data: Creating }
  | { type: 'activity' }
  | { type: 'recordRound'; data: RoundData }
  | {
      type: 'questionsLinked';
      data: LinkData;
    }
  | { type: 'questionAnswered'; data: { questionId: string; decisionEventId: string } }
  | { type: 'questionWithdrawn'; data: { questionId: string } }
  | { type: 'humanResume' }
  | { type: 'overrideResume'; data: { by: string; why: string; allowed: boolean } }
  | { type: 'sweep'; data: { staleAfterS: number; parkAfterS: number } };

export type GateDecision = Decision<GateEvent>;

export function decide(command: GateCommand, state: GateCycle | null, now: Date): GateDecision {
  switch (command.type) {
    case 'start':
      return start(command.data, state, now);
    case 'activity':
      return state ? [{ type: 'gate.activity_recorded', data: ref(state), occurredAt: now }] : [];
    case 'recordRound':
      return recordRound(command.data, state, now);
    case 'questionsLinked':
      return questionsLinked(command.data, state, now);
    case 'questionAnswered':
      return questionAnswered(command.data, state, now);
    case 'questionWithdrawn':
      return questionWithdrawn(command.data.questionId, state, now);
    case 'humanResume':
      return humanResume(state, now);
    case 'overrideResume':
      return overrideResume(command.data, state, now);
    case 'sweep':
      return sweep(command.data, state, now);
    default: {
      const unknownCommand: never = command;
      return unknownCommand;
    }
  }
}

const ref = (state: GateCycle) => ({ taskId: state.taskId, gate: state.gate });

function started(data: Creating, state: GateCycle | null, now: Date): GateEvent {
  const maxCorrections =
    data.maxCorrections ?? state?.maxCorrections ?? data.defaultMaxCorrections ?? DEFAULT_MAX_CORRECTIONS;
  const { projectId, taskId, gate, sessionAuthorId } = data;
  return {
    type: 'gate.cycle_started',
    data: { projectId, taskId, gate, sessionAuthorId, maxCorrections, restarted: state !== null },
    occurredAt: now,
  };
}

function start(data: Creating, state: GateCycle | null, now: Date): GateDecision {
  if (!isValidMaxCorrections(data.maxCorrections))
    return refusal(400, 'max_correcoes_invalido', 'maxCorrections must be an integer >= 0');
  // A parked cycle resumes only by an answer or a human gesture; a start is mere activity there.
  if (state?.status === 'parked')
    return [{ type: 'gate.activity_recorded', data: ref(state), occurredAt: now }];
  return [started(data, state, now)];
}

/**
 * §11.1 the questions the handler must look up before deciding this round: those a new round
 * that parks cites. None for a round already processed, or one that does not park (its
 * citations are not linked).
 */
export function citationsToCheck(
  state: GateCycle | null,
  roundId: string,
  verdicts: readonly SubspecialtyVerdict[],
): string[] {
  if (state?.processedRoundIds.includes(roundId) || !roundParks(verdicts)) return [];
  return citedQuestionIds(verdicts);
}

function recordRound(data: RoundData, state: GateCycle | null, now: Date): GateDecision {
  if (state?.processedRoundIds.includes(data.roundId)) return [];
  const invalid = validateRound(data.verdicts, data.maxCorrections);
  if (invalid) return invalid;
  // A verdict for a cycle whose start we never saw opens the cycle (the verdict names its session author).
  const opening = state ? [] : [started(data, null, now)];
  const cycle = state ?? evolve(null, opening[0]!);
  if (!cycle) return [];
  // §11.1 a parking round may cite only questions of the project: otherwise it is refused, and
  // only spent (nothing parked, counter untouched, the cycle as it was); the engine is told.
  const ghost = roundParks(data.verdicts) ? unknownCitation(data.verdicts, data.citations ?? {}) : null;
  if (ghost !== null) {
    const rejected: GateEvent = {
      type: 'gate.verdict_rejected',
      data: { ...ref(cycle), roundId: data.roundId, reason: 'pergunta_nao_encontrada', questionId: ghost },
      occurredAt: now,
    };
    return [...opening, rejected];
  }
  return [...opening, ...roundEvents(cycle, data.roundId, data.verdicts, data.maxCorrections, now)];
}

/**
 * Called once every linked question is answered or withdrawn (§11.5): `decisionEventIds` are the
 * answers' decisions, `withdrawnQuestionIds` the others (only when there are some). `trigger` is
 * `withdrawn` when the question that closed the park last was withdrawn, else `answer`.
 */
function resumedWhenClosed(state: GateCycle, trigger: 'answer' | 'withdrawn', now: Date): GateEvent {
  const questionIds = [...state.linkedQuestionIds];
  const decisionEventIds = questionIds
    .map((id) => state.answeredQuestions[id])
    .filter((id): id is string => id !== undefined);
  const withdrawnQuestionIds = questionIds.filter((id) => state.withdrawnQuestions.includes(id));
  const pendingChanges: PendingChange[] = [...state.pendingChanges];
  return {
    type: 'gate.resumed',
    data: {
      ...ref(state),
      trigger,
      questionIds,
      decisionEventIds,
      pendingChanges,
      ...(withdrawnQuestionIds.length > 0 ? { withdrawnQuestionIds } : {}),
    },
    occurredAt: now,
  };
}

function questionsLinked(data: LinkData, state: GateCycle | null, now: Date): GateDecision {
  // Only the round that asked may link; a second link of the same round changes nothing.
  if (!state || state.pendingQuestionRequest?.roundId !== data.roundId) return [];
  const questionIds = [...new Set(data.questionIds)];
  if (questionIds.length === 0)
    return refusal(400, 'sem_perguntas', 'a round parked on a decision waits on at least one question');
  const linked: GateEvent = {
    type: 'gate.questions_linked',
    data: {
      ...ref(state),
      roundId: data.roundId,
      questionIds,
      answered: { ...data.answered },
      withdrawn: [...new Set(data.withdrawn ?? [])].filter((id) => questionIds.includes(id)),
    },
    occurredAt: now,
  };
  const after = evolve(state, linked);
  if (!after) return [linked];
  // Closed before they were linked: which closed last is not known here, so `withdrawn` only
  // when none of them was answered.
  if (after.questionIds.length === 0) {
    const anyAnswered = questionIds.some((id) => id in after.answeredQuestions);
    return [linked, resumedWhenClosed(after, anyAnswered ? 'answer' : 'withdrawn', now)];
  }
  const n = after.questionIds.length;
  const why = `waiting for the user's decision on ${n} open question${n === 1 ? '' : 's'}`;
  return [
    linked,
    {
      type: 'gate.rescue_parked',
      data: { ...ref(state), reason: 'user_decision', questionIds: [...after.questionIds], why },
      occurredAt: now,
    },
  ];
}

function questionAnswered(
  data: { questionId: string; decisionEventId: string },
  state: GateCycle | null,
  now: Date,
): GateDecision {
  if (!state || data.questionId in state.answeredQuestions) return [];
  const answered: GateEvent = {
    type: 'gate.question_answered',
    data: { ...ref(state), ...data },
    occurredAt: now,
  };
  const wasWaiting = state.parkedReason === 'user_decision' && state.questionIds.includes(data.questionId);
  const after = evolve(state, answered);
  if (!after || !wasWaiting || after.questionIds.length > 0 || after.pendingQuestionRequest)
    return [answered];
  return [answered, resumedWhenClosed(after, 'answer', now)];
}

/**
 * §11.5 a withdrawn question needs no answer: remembered (a later link of it does not wait on
 * it), and a park whose last open question it was resumes with trigger `withdrawn`.
 */
function questionWithdrawn(questionId: string, state: GateCycle | null, now: Date): GateDecision {
  if (!state || state.withdrawnQuestions.includes(questionId) || questionId in state.answeredQuestions)
    return [];
  const withdrawn: GateEvent = {
    type: 'gate.question_withdrawn',
    data: { ...ref(state), questionId },
    occurredAt: now,
  };
  const wasWaiting = state.parkedReason === 'user_decision' && state.questionIds.includes(questionId);
  const after = evolve(state, withdrawn);
  if (!after || !wasWaiting || after.questionIds.length > 0 || after.pendingQuestionRequest)
    return [withdrawn];
  return [withdrawn, resumedWhenClosed(after, 'withdrawn', now)];
}

function humanResume(state: GateCycle | null, now: Date): GateDecision {
  if (!state) return refusal(404, 'gate_nao_encontrado', 'this task has no such gate cycle');
  if (state.status !== 'parked')
    return refusal(409, 'gate_nao_estacionado', `the gate is ${state.status}, not parked`);
  if (state.parkedReason === 'user_decision') {
    return refusal(
      409,
      'gate_aguarda_decisao',
      'the gate waits on open questions: answer them to resume it',
      {
        questionIds: [...state.questionIds],
      },
    );
  }
  return [
    {
      type: 'gate.resumed',
      data: { ...ref(state), trigger: 'human', questionIds: [], decisionEventIds: [], pendingChanges: [] },
      occurredAt: now,
    },
  ];
}

/** §12.1 the project keeps the seeds' rule: only an answer resumes a gate parked on a decision. */
const OVERRIDE_OFF = () =>
  refusal(
    403,
    'override_desligado',
    "a maintainer's override is off in this project: only an answer resumes a gate parked on a decision",
  );

/**
 * §11.1 a maintainer's way out of a decision park: the cycle runs again without the answer, the
 * questions stay open (a later answer no longer resumes anything: the cycle is not waiting). The
 * event names the questions left open and the decisions the park had already got. §12.1 only
 * while the project's `overrideDeMantenedor` policy is on (`allowed`), else 403 `override_desligado`.
 */
function overrideResume(
  data: { by: string; why: string; allowed: boolean },
  state: GateCycle | null,
  now: Date,
): GateDecision {
  if (!data.allowed) return OVERRIDE_OFF();
  if (!state) return refusal(404, 'gate_nao_encontrado', 'this task has no such gate cycle');
  if (state.status !== 'parked')
    return refusal(409, 'gate_nao_estacionado', `the gate is ${state.status}, not parked`);
  if (state.parkedReason !== 'user_decision') {
    return refusal(
      409,
      'gate_nao_aguarda_decisao',
      'the gate is parked for inactivity, not on a decision: resume it without override',
    );
  }
  const decisionEventIds = state.linkedQuestionIds
    .map((id) => state.answeredQuestions[id])
    .filter((id): id is string => id !== undefined);
  return [
    {
      type: 'gate.resumed',
      data: {
        ...ref(state),
        trigger: 'override',
        questionIds: [...state.questionIds],
        decisionEventIds,
        pendingChanges: [...state.pendingChanges],
        by: data.by,
        why: data.why,
      },
      occurredAt: now,
    },
  ];
}

const secondsBetween = (from: Date, to: Date) => Math.floor((to.getTime() - from.getTime()) / 1000);

/** ADR 0207: park a running cycle idle for too long, or ask the engine to re-dispatch a stale one. */
function sweep(
  data: { staleAfterS: number; parkAfterS: number },
  state: GateCycle | null,
  now: Date,
): GateDecision {
  if (!state || state.status !== 'running') return [];
  const ageSeconds = secondsBetween(state.lastActivityAt, now);
  if (ageSeconds > data.parkAfterS) {
    const why = `no agent activity for ${ageSeconds} s (limit ${data.parkAfterS} s)`;
    return [
      {
        type: 'gate.rescue_parked',
        data: { ...ref(state), reason: 'idle', questionIds: [], ageSeconds, why },
        occurredAt: now,
      },
    ];
  }
  if (ageSeconds <= data.staleAfterS) return [];
  // At most one re-dispatch per stale window, so a sweep every 5 minutes does not flood the engine.
  if (state.lastRedispatchAt && secondsBetween(state.lastRedispatchAt, now) <= data.staleAfterS) return [];
  return [{ type: 'gate.redispatch_requested', data: { ...ref(state), ageSeconds }, occurredAt: now }];
}

/** A gate cycle on the decider kit; `null` is a cycle that has not started. */
export const gateCycle: Decider<GateCommand, GateCycle | null, GateEvent> = {
  initialState: null,
  decide,
  evolve,
};
