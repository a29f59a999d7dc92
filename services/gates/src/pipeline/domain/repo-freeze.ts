import { type Decider, type DomainEvent } from '@openq/contracts';

/**
 * The freeze axis of the serial gate (SPEC §7, §11.3): while a repo is frozen no task of it
 * enters analysis (tasks already in go on). A freeze says who and why; freezing a frozen repo or
 * unfreezing one that is not frozen changes nothing and publishes nothing [openq]: the first
 * freeze (its who and why) stands until it is lifted.
 */

export interface RepoFreeze {
  repo: string;
  /** A user id, or `agent` when the engine froze it (`agent.repo.freeze`). */
  by: string;
  /** Null only for a freeze written by hand in SQL before the doors existed. */
  why: string | null;
  frozenAt: Date;
}

/** Who froze by the engine's event (the event names no person) [openq]. */
export const AGENT_FREEZER = 'agent';

export type RepoFreezeCommand =
  { type: 'freeze'; repo: string; by: string; why: string } | { type: 'unfreeze'; repo: string; by: string };

export type RepoFrozen = DomainEvent<'pipeline.repo_frozen', { repo: string; by: string; why: string }>;
export type RepoUnfrozen = DomainEvent<'pipeline.repo_unfrozen', { repo: string; by: string }>;
export type RepoFreezeEvent = RepoFrozen | RepoUnfrozen;

/** Decides a freeze or an unfreeze of `command.repo` over its current freeze (null: not frozen). */
export function decide(command: RepoFreezeCommand, current: RepoFreeze | null, now: Date): RepoFreezeEvent[] {
  if (command.type === 'freeze') {
    if (current !== null) return [];
    const why = command.why.trim();
    return [
      { type: 'pipeline.repo_frozen', data: { repo: command.repo, by: command.by, why }, occurredAt: now },
    ];
  }
  if (current === null) return [];
  return [{ type: 'pipeline.repo_unfrozen', data: { repo: command.repo, by: command.by }, occurredAt: now }];
}

export function evolve(current: RepoFreeze | null, event: RepoFreezeEvent): RepoFreeze | null {
  if (event.type === 'pipeline.repo_unfrozen') return null;
  const { repo, by, why } = event.data;
  return { repo, by, why, frozenAt: event.occurredAt };
}

/** True when the events lift a freeze: the repo's waiting tasks must be looked at again. */
export const liftsFreeze = (events: readonly RepoFreezeEvent[]) =>
  events.some((e) => e.type === 'pipeline.repo_unfrozen');

/** A repo's freeze on the decider kit; `null` is a repo not frozen. */
export const repoFreeze: Decider<RepoFreezeCommand, RepoFreeze | null, RepoFreezeEvent> = {
  initialState: null,
  decide,
  evolve,
};
