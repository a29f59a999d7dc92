import { ANALYST_DELIVERABLES, ANALYST_QUESTIONS_FILE, parseTimestamp } from '@openq/contracts';

/** The analyst's signal file and the four deliverables of the package (SPEC §7, ADR-0053). */
export const QUESTIONS_FILE = ANALYST_QUESTIONS_FILE;
export const DELIVERABLES = ANALYST_DELIVERABLES;

/** file → mtime (ISO timestamp), null or absent when the file does not exist. */
export type PackageTimes = Readonly<Record<string, string | null | undefined>>;

export type QuestionsCheck =
  { active: boolean; degraded: false } | { active: false; degraded: true; error: string };

function mtime(pkg: PackageTimes, file: string): bigint | null {
  const value = pkg[file];
  if (value === null || value === undefined) return null;
  if (typeof value !== 'string') throw new TypeError(`mtime of ${file} is not a string`);
  const parsed = parseTimestamp(value);
  if (parsed === null)
    throw new TypeError(`mtime of ${file} is not an ISO timestamp: ${JSON.stringify(value).slice(0, 60)}`);
  return parsed;
}

/**
 * Questions active ⇔ the questions file exists ∧ (a deliverable is missing ∨ not every deliverable
 * is strictly newer than it). A tie counts as active: a deliverable written in the same instant
 * as the questions does not prove the questions were settled. Throws on malformed input; callers
 * use `checkQuestionsActive`.
 */
export function questionsActive(pkg: PackageTimes): boolean {
  if (typeof pkg !== 'object' || pkg === null || Array.isArray(pkg))
    throw new TypeError('package is not an object');
  const questions = mtime(pkg, QUESTIONS_FILE);
  // Every deliverable is read, so a malformed package degrades whatever the questions file says.
  const deliverables = DELIVERABLES.map((file) => mtime(pkg, file));
  if (questions === null) return false;
  return deliverables.some((t) => t === null || t <= questions);
}

/** Never raises: a malformed package degrades to "not active" (the previous behaviour), flagged. */
export function checkQuestionsActive(pkg: unknown): QuestionsCheck {
  try {
    return { active: questionsActive(pkg as PackageTimes), degraded: false };
  } catch (error) {
    return { active: false, degraded: true, error: error instanceof Error ? error.message : String(error) };
  }
}

/** The "files ready" check of the previous behaviour: presence only; no package means nothing present. */
export function missingDeliverables(pkg: PackageTimes | null | undefined): string[] {
  const present = typeof pkg === 'object' && pkg !== null ? pkg : {};
  return DELIVERABLES.filter((file) => present[file] === null || present[file] === undefined);
}
