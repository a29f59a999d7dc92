import type { DomainEvent, Gate, GateNextAction } from '@openq/contracts';
import type { Verdict } from './consolidate';

// The gate kinds and their order: one table in libs/contracts (GATE_TABLE).
export { GATES } from '@openq/contracts';
export type GateName = Gate;
export type NextAction = GateNextAction;
export type ParkedReason = 'idle' | 'user_decision';
export type ResumeTrigger = 'answer' | 'human' | 'override' | 'withdrawn';

/** What a subspecialty asked to change; kept on a cycle parked on a decision, shown to QA on resume. */
export interface PendingChange {
  subspecialty: string;
  summary: string | null;
  items: readonly string[];
}

export interface QuestionToDeclare {
  /** Stable per round and verdict: the handler's idempotency key (`toolCallId`) for the declare call. */
  key: string;
  subspecialty: string;
  question: string;
  suggestion: string | null;
}

/** Instruction to the handler: open these questions in the questions service, then link them. */
export interface QuestionRequest {
  roundId: string;
  sessionAuthorId: string;
  role: 'qa-agent';
  origin: 'qa_verdict';
  affects: { rules: string[]; stories: string[]; tasks: string[] };
  declare: QuestionToDeclare[];
  /** Existing questions (`openQuestionId`) the round waits on. */
  link: string[];
}

/**
 * §11.1 what the owner of the question log (or, for an answer, this service's own record of
 * `question.answered`) says of a question a verdict cites; the handler looks it up before the
 * round is decided.
 */
export type CitedQuestion =
  | { status: 'absent' }
  | { status: 'open' }
  | { status: 'answered'; decisionEventId: string }
  | { status: 'withdrawn' };

interface CycleRef {
  taskId: string;
  gate: GateName;
}

// Published (SPEC §5 payloads).
export type VerdictRecorded = DomainEvent<
  'gate.verdict_recorded',
  CycleRef & { verdict: Verdict; correctionCount: number; maxCorrections: number; nextAction: NextAction }
>;
export type RescueParked = DomainEvent<
  'gate.rescue_parked',
  CycleRef & { reason: ParkedReason; questionIds: string[]; ageSeconds?: number; why: string }
>;
/** `pendingChanges` is an openq addition: the changes requested in the round that parked (§5 [openq]). */
export type Resumed = DomainEvent<
  'gate.resumed',
  CycleRef & {
    trigger: ResumeTrigger;
    questionIds: string[];
    decisionEventIds: string[];
    pendingChanges: PendingChange[];
    /** §11.5 the park's questions that were withdrawn (no decision); only when there are some. */
    withdrawnQuestionIds?: string[];
    /** §11.1 trigger `override` only: who resumed without the answer, and why. */
    by?: string;
    why?: string;
  }
>;
export type RedispatchRequested = DomainEvent<'gate.redispatch_requested', CycleRef & { ageSeconds: number }>;
/** §11.1 the round cited a question that is not in the project: refused, the round spent. */
export type VerdictRejected = DomainEvent<
  'gate.verdict_rejected',
  CycleRef & { roundId: string; reason: 'pergunta_nao_encontrada'; questionId: string }
>;

// Internal: they change the cycle's state and are not published.
export type CycleStarted = DomainEvent<
  'gate.cycle_started',
  CycleRef & { projectId: string; sessionAuthorId: string; maxCorrections: number; restarted: boolean }
>;
export type ActivityRecorded = DomainEvent<'gate.activity_recorded', CycleRef>;
export type RoundRecorded = DomainEvent<
  'gate.round_recorded',
  CycleRef & {
    roundId: string;
    verdict: Verdict;
    correctionCount: number;
    maxCorrections: number;
    nextAction: NextAction;
    blockedReason: string | null;
    pendingChanges: PendingChange[];
  }
>;
export type QuestionsRequested = DomainEvent<
  'gate.questions_requested',
  CycleRef & { request: QuestionRequest }
>;
/** `answered` / `withdrawn`: those of the linked questions already closed when they were linked. */
export type QuestionsLinked = DomainEvent<
  'gate.questions_linked',
  CycleRef & { roundId: string; questionIds: string[]; answered: Record<string, string>; withdrawn: string[] }
>;
export type QuestionAnswered = DomainEvent<
  'gate.question_answered',
  CycleRef & { questionId: string; decisionEventId: string }
>;
/** §11.5 a question of the project was withdrawn: for a cycle waiting on it, as good as answered, with no decision. */
export type QuestionWithdrawn = DomainEvent<'gate.question_withdrawn', CycleRef & { questionId: string }>;

export type PublishedGateEvent =
  VerdictRecorded | RescueParked | Resumed | RedispatchRequested | VerdictRejected;
export type GateEvent =
  | PublishedGateEvent
  | CycleStarted
  | ActivityRecorded
  | RoundRecorded
  | QuestionsRequested
  | QuestionsLinked
  | QuestionAnswered
  | QuestionWithdrawn;

const PUBLISHED: ReadonlySet<string> = new Set<PublishedGateEvent['type']>([
  'gate.verdict_recorded',
  'gate.rescue_parked',
  'gate.resumed',
  'gate.redispatch_requested',
  'gate.verdict_rejected',
]);

/** Which events go to the outbox; the others only change the cycle's state. */
export function isPublished(event: GateEvent): event is PublishedGateEvent {
  return PUBLISHED.has(event.type);
}
