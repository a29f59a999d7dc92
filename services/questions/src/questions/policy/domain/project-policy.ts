import { refusal, type Decider, type Decision, type DomainEvent, type Refusal } from '@openq/contracts';

/**
 * §12.1 a project's policies, folded from its log. The seeds' rules are the default (ARCHITECTURE
 * rule 13): a project with no change recorded has both conveniences off — only the session's
 * author answers by click, and only an answer (or the author) unlocks a parked gate.
 */
export interface ProjectPolicy {
  /** §11.6 a session author's grants let a delegate answer by click (the wire's `delegacao`). */
  delegation: boolean;
  /** A maintainer may unlock a parked gate (the wire's `overrideDeMantenedor`; the gates service's decision). */
  maintainerOverride: boolean;
}

export const SEEDS_RULES: ProjectPolicy = { delegation: false, maintainerOverride: false };

/** The policies now in force, who changed them and why (the wire's `project.policy_changed`, mapped in `toWire`). */
export interface PolicyChanged extends ProjectPolicy {
  projectId: string;
  by: string;
  reason: string;
  changedAt: string;
}

export type ProjectPolicyWasChanged = DomainEvent<'project.policy_changed', PolicyChanged>;
export type ProjectPolicyEvent = ProjectPolicyWasChanged;

/** A maintainer (the gateway checked the role) sets one or both policies, with a why. */
export interface ChangePolicy {
  type: 'change';
  projectId: string;
  by: string;
  reason: string;
  delegation?: boolean;
  maintainerOverride?: boolean;
}
export type ProjectPolicyCommand = ChangePolicy;

const NOTHING_TO_CHANGE = (): Refusal =>
  refusal(400, 'corpo_invalido', 'give delegacao, overrideDeMantenedor or both');

export function evolve(_state: ProjectPolicy, event: ProjectPolicyEvent): ProjectPolicy {
  return { delegation: event.data.delegation, maintainerOverride: event.data.maintainerOverride };
}

/**
 * A change names what it sets; the other policy keeps its value. Setting what is already in force
 * decides nothing (a retried PUT changes nothing and the log keeps no empty change).
 */
export function decide(
  command: ProjectPolicyCommand,
  state: ProjectPolicy,
  now: Date,
): Decision<ProjectPolicyEvent> {
  if (command.delegation === undefined && command.maintainerOverride === undefined)
    return NOTHING_TO_CHANGE();
  const next: ProjectPolicy = {
    delegation: command.delegation ?? state.delegation,
    maintainerOverride: command.maintainerOverride ?? state.maintainerOverride,
  };
  if (next.delegation === state.delegation && next.maintainerOverride === state.maintainerOverride) return [];
  return [
    {
      type: 'project.policy_changed',
      data: {
        projectId: command.projectId,
        by: command.by,
        reason: command.reason,
        ...next,
        changedAt: now.toISOString(),
      },
      occurredAt: now,
    },
  ];
}

/** A project's policies on the decider kit; the initial state is the seeds' rules. */
export const projectPolicy: Decider<ProjectPolicyCommand, ProjectPolicy, ProjectPolicyEvent> = {
  initialState: SEEDS_RULES,
  decide,
  evolve,
};

/** §12.1 a delegate's click while delegation is off: refused, whatever the grant says. */
export const DELEGATION_OFF = (statusCode: 403 | 409): Refusal =>
  refusal(
    statusCode,
    'delegacao_desligada',
    'delegation is off in this project: only the author of the session answers its questions',
  );
