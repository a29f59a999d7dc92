import type { AnalystQuestion } from '@openq/contracts';
import {
  checkQuestionsActive,
  missingDeliverables,
  type PackageTimes,
  type QuestionsCheck,
} from './questions-active';

/** SPEC §7 flags; off / out of scope = exactly the behaviour before the questions gate. */
export interface AnalysisFlags {
  analystQuestionsGateEnabled: boolean;
  /** Empty = every repo. */
  analystQuestionsGateRepos: readonly string[];
  analystNeedsInputAutopauseEnabled: boolean;
  autoApproveLabel: string;
}

export const DEFAULT_ANALYSIS_FLAGS: AnalysisFlags = {
  analystQuestionsGateEnabled: true,
  analystQuestionsGateRepos: [],
  analystNeedsInputAutopauseEnabled: true,
  autoApproveLabel: 'auto-approve',
};

/** The contract's shape, shared with the questions file's parser. */
export type { AnalystQuestion } from '@openq/contracts';

/** The part of `agent.analysis.finished` the outcome depends on. */
export interface AnalysisReport {
  repo: string;
  labels: readonly string[];
  package: PackageTimes;
  questions: readonly AnalystQuestion[];
}

export type AnalysisOutcome =
  | { kind: 'needs_input'; questions: readonly AnalystQuestion[]; pause: { source: 'engine' } | null }
  | { kind: 'in_review'; advanceTo: 'architecture' | null }
  | { kind: 'analysis_incomplete'; missing: string[] };

export interface AnalysisDecision {
  outcome: AnalysisOutcome;
  /** null when the questions gate does not apply (flag off or repo out of scope); log and count when degraded. */
  questionsCheck: QuestionsCheck | null;
}

export function questionsGateApplies(repo: string, flags: AnalysisFlags): boolean {
  const repos = flags.analystQuestionsGateRepos;
  return flags.analystQuestionsGateEnabled && (repos.length === 0 || repos.includes(repo));
}

function filesOutcome(report: AnalysisReport, flags: AnalysisFlags): AnalysisOutcome {
  const missing = missingDeliverables(report.package);
  if (missing.length > 0) return { kind: 'analysis_incomplete', missing };
  return {
    kind: 'in_review',
    advanceTo: report.labels.includes(flags.autoApproveLabel) ? 'architecture' : null,
  };
}

/** Active questions > files ready (also over auto-approve) > incomplete package (ADR-0053 §2). */
export function analysisOutcome(report: AnalysisReport, flags: AnalysisFlags): AnalysisDecision {
  if (!questionsGateApplies(report.repo, flags))
    return { outcome: filesOutcome(report, flags), questionsCheck: null };
  const questionsCheck = checkQuestionsActive(report.package);
  if (!questionsCheck.active) return { outcome: filesOutcome(report, flags), questionsCheck };
  const pause = flags.analystNeedsInputAutopauseEnabled ? ({ source: 'engine' } as const) : null;
  return { outcome: { kind: 'needs_input', questions: report.questions, pause }, questionsCheck };
}
