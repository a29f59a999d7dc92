import { nextActionOnApproval, refusal, type Refusal } from '@openq/contracts';
import { consolidate, isVerdict, type Verdict } from './consolidate';
import type {
  CitedQuestion,
  GateEvent,
  GateName,
  NextAction,
  PendingChange,
  QuestionRequest,
} from './gate-cycle.events';
import { CORRECTION_CYCLE_EXHAUSTED, type GateCycle } from './gate-cycle.state';

/** One subspecialty's verdict as `agent.qa.verdict` carries it (SPEC §8). */
export interface SubspecialtyVerdict {
  subspecialty: string;
  verdict: Verdict;
  summary?: string | null;
  items?: readonly string[] | null;
  question?: string | null;
  suggestion?: string | null;
  openQuestionId?: string | null;
}

/**
 * The correction counter after a round's verdict: changes_requested consumes one cycle, approved
 * resets it, blocked and needs_user_decision leave it alone. Exhausted once ABOVE the ceiling.
 */
export function countCorrections(verdict: Verdict, correctionCount: number, maxCorrections: number) {
  switch (verdict) {
    case 'approved':
      return { correctionCount: 0, exhausted: false };
    case 'changes_requested': {
      const next = correctionCount + 1;
      return { correctionCount: next, exhausted: next > maxCorrections };
    }
    case 'blocked':
    case 'needs_user_decision':
      return { correctionCount, exhausted: false };
    default: {
      const unknownVerdict: never = verdict;
      return unknownVerdict;
    }
  }
}

/** `nextAction` of `gate.verdict_recorded`, from the event's own fields. */
export function nextAction(
  gate: GateName,
  verdict: Verdict,
  correctionCount: number,
  maxCorrections: number,
): NextAction {
  switch (verdict) {
    case 'approved':
      return nextActionOnApproval(gate);
    case 'changes_requested':
      return correctionCount > maxCorrections ? 'blocked' : 'correct';
    case 'blocked':
      return 'blocked';
    case 'needs_user_decision':
      return 'parked';
    default: {
      const unknownVerdict: never = verdict;
      return unknownVerdict;
    }
  }
}

export function isValidMaxCorrections(value: number | undefined): boolean {
  return value === undefined || (Number.isInteger(value) && value >= 0);
}

function asksNothing(v: SubspecialtyVerdict): boolean {
  return v.verdict === 'needs_user_decision' && !v.openQuestionId && !(v.question ?? '').trim();
}

export function validateRound(
  verdicts: readonly SubspecialtyVerdict[],
  maxCorrections?: number,
): Refusal | null {
  if (verdicts.length === 0)
    return refusal(400, 'rodada_vazia', 'a QA round needs at least one subspecialty verdict');
  const invalid = verdicts.find((v) => !isVerdict(v.verdict));
  if (invalid) return refusal(400, 'veredito_invalido', `unknown verdict from ${invalid.subspecialty}`);
  const mute = verdicts.find(asksNothing);
  if (mute) {
    return refusal(
      400,
      'veredito_sem_pergunta',
      `needs_user_decision from ${mute.subspecialty} carries neither pergunta nor openQuestionId`,
    );
  }
  if (!isValidMaxCorrections(maxCorrections))
    return refusal(400, 'max_correcoes_invalido', 'maxCorrections must be an integer >= 0');
  return null;
}

/** The existing questions (`openQuestionId`) the round's `needs_user_decision` verdicts cite, once each, in order. */
export function citedQuestionIds(verdicts: readonly SubspecialtyVerdict[]): string[] {
  const cited = verdicts.flatMap((v) =>
    v.verdict === 'needs_user_decision' && v.openQuestionId ? [v.openQuestionId] : [],
  );
  return [...new Set(cited)];
}

/**
 * §11.1 the first question a parking round cites that is not known to exist in the project
 * (the owner said absent, or nobody looked it up: a citation is never trusted blindly); null
 * when every one exists.
 */
export function unknownCitation(
  verdicts: readonly SubspecialtyVerdict[],
  citations: Readonly<Record<string, CitedQuestion>>,
): string | null {
  return citedQuestionIds(verdicts).find((id) => (citations[id]?.status ?? 'absent') === 'absent') ?? null;
}

/** questionId → decisionEventId of the cited questions known to be answered: the cycle never parks on them. */
export function answeredCitations(
  citations: Readonly<Record<string, CitedQuestion>>,
): Record<string, string> {
  return Object.fromEntries(
    Object.entries(citations).flatMap(([id, c]) =>
      c.status === 'answered' ? [[id, c.decisionEventId]] : [],
    ),
  );
}

/** §11.5 the cited questions known to be withdrawn: the cycle never parks on them either. */
export function withdrawnCitations(citations: Readonly<Record<string, CitedQuestion>>): string[] {
  return Object.entries(citations).flatMap(([id, c]) => (c.status === 'withdrawn' ? [id] : []));
}

/** Whether a round would park on a decision (the only rounds whose citations are linked). */
export function roundParks(verdicts: readonly SubspecialtyVerdict[]): boolean {
  return consolidate(verdicts.map((v) => v.verdict)) === 'needs_user_decision';
}

export function questionRequest(
  state: GateCycle,
  roundId: string,
  verdicts: readonly SubspecialtyVerdict[],
): QuestionRequest {
  const asking = verdicts.filter((v) => v.verdict === 'needs_user_decision');
  const link = citedQuestionIds(verdicts);
  // Subspecialties are unique within a round (the DTO checks it), so the key names one question.
  const declare = asking.flatMap((v) =>
    v.openQuestionId
      ? []
      : [
          {
            key: `${roundId}:${v.subspecialty}`,
            subspecialty: v.subspecialty,
            question: (v.question ?? '').trim(),
            suggestion: v.suggestion?.trim() || null,
          },
        ],
  );
  return {
    roundId,
    sessionAuthorId: state.sessionAuthorId,
    role: 'qa-agent',
    origin: 'qa_verdict',
    affects: { rules: [], stories: [], tasks: [state.taskId] },
    declare,
    link,
  };
}

function pendingChanges(verdicts: readonly SubspecialtyVerdict[]): PendingChange[] {
  return verdicts
    .filter((v) => v.verdict === 'changes_requested')
    .map((v) => ({ subspecialty: v.subspecialty, summary: v.summary ?? null, items: v.items ?? [] }));
}

function blockedReason(
  verdict: Verdict,
  exhausted: boolean,
  verdicts: readonly SubspecialtyVerdict[],
): string | null {
  if (exhausted) return CORRECTION_CYCLE_EXHAUSTED;
  if (verdict !== 'blocked') return null;
  const failing = verdicts.filter((v) => v.verdict === 'blocked').map((v) => v.subspecialty);
  return `blocked by subspecialty: ${failing.join(', ')}`;
}

/** The events of one new (validated, not yet processed) round on an existing cycle. */
export function roundEvents(
  state: GateCycle,
  roundId: string,
  verdicts: readonly SubspecialtyVerdict[],
  maxCorrectionsFromVerdict: number | undefined,
  now: Date,
): GateEvent[] {
  const verdict = consolidate(verdicts.map((v) => v.verdict));
  if (verdict === null) return [];
  const { taskId, gate } = state;
  const maxCorrections = maxCorrectionsFromVerdict ?? state.maxCorrections;
  const { correctionCount, exhausted } = countCorrections(verdict, state.correctionCount, maxCorrections);
  const action = nextAction(gate, verdict, correctionCount, maxCorrections);
  const parking = verdict === 'needs_user_decision';
  const events: GateEvent[] = [
    {
      type: 'gate.round_recorded',
      data: {
        taskId,
        gate,
        roundId,
        verdict,
        correctionCount,
        maxCorrections,
        nextAction: action,
        blockedReason: blockedReason(verdict, exhausted, verdicts),
        pendingChanges: parking ? pendingChanges(verdicts) : [],
      },
      occurredAt: now,
    },
    {
      type: 'gate.verdict_recorded',
      data: { taskId, gate, verdict, correctionCount, maxCorrections, nextAction: action },
      occurredAt: now,
    },
  ];
  if (parking) {
    events.push({
      type: 'gate.questions_requested',
      data: { taskId, gate, request: questionRequest(state, roundId, verdicts) },
      occurredAt: now,
    });
  }
  return events;
}
