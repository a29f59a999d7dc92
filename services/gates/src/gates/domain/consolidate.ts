/** A verdict of one QA subspecialty, and of the QA Lead's consolidation (SPEC §5). */
export type Verdict = 'approved' | 'changes_requested' | 'needs_user_decision' | 'blocked';

export const VERDICTS: readonly Verdict[] = [
  'approved',
  'changes_requested',
  'needs_user_decision',
  'blocked',
];

/** Strongest first: the first verdict of this list present in a round is the round's verdict. */
export const VERDICT_PRECEDENCE: readonly Verdict[] = [
  'blocked',
  'needs_user_decision',
  'changes_requested',
  'approved',
];

export function isVerdict(value: unknown): value is Verdict {
  return typeof value === 'string' && (VERDICTS as readonly string[]).includes(value);
}

/**
 * QA Lead consolidation of one round: blocked > needs_user_decision > changes_requested > approved.
 * An empty round has no verdict (`null`), never "approved": approving on no evidence would let
 * through exactly what QA exists to stop. The cycle's `decide` refuses such a round.
 */
export function consolidate(verdicts: readonly Verdict[]): Verdict | null {
  for (const candidate of VERDICT_PRECEDENCE) {
    if (verdicts.includes(candidate)) return candidate;
  }
  return null;
}
