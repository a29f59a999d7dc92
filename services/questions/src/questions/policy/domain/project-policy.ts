import {
  refusal,
  type Decider,
  type Decision,
  type DomainEvent,
  type ProjectPolicies,
  type ProjectPolicyChanged,
  type Refusal,
} from '@openq/contracts';

/**
 * §12.1 a project's policies, folded from its log. The seeds' rules are the default (ARCHITECTURE
 * rule 13): a project with no change recorded has both conveniences off — only the session's
 * author answers by click, and only an answer (or the author) unlocks a parked gate.
 */
export type ProjectPolicy = ProjectPolicies;

export const SEEDS_RULES: ProjectPolicy = { delegacao: false, overrideDeMantenedor: false };

export type ProjectPolicyWasChanged = DomainEvent<'project.policy_changed', ProjectPolicyChanged>;
export type ProjectPolicyEvent = ProjectPolicyWasChanged;

/** A maintainer (the gateway checked the role) sets one or both policies, with a why. */
export interface ChangePolicy {
  type: 'change';
  projectId: string;
  by: string;
  motivo: string;
  delegacao?: boolean;
  overrideDeMantenedor?: boolean;
}
export type ProjectPolicyCommand = ChangePolicy;

const NOTHING_TO_CHANGE = (): Refusal =>
  refusal(400, 'corpo_invalido', 'give delegacao, overrideDeMantenedor or both');

export function evolve(_state: ProjectPolicy, event: ProjectPolicyEvent): ProjectPolicy {
  return { delegacao: event.data.delegacao, overrideDeMantenedor: event.data.overrideDeMantenedor };
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
  if (command.delegacao === undefined && command.overrideDeMantenedor === undefined)
    return NOTHING_TO_CHANGE();
  const next: ProjectPolicy = {
    delegacao: command.delegacao ?? state.delegacao,
    overrideDeMantenedor: command.overrideDeMantenedor ?? state.overrideDeMantenedor,
  };
  if (next.delegacao === state.delegacao && next.overrideDeMantenedor === state.overrideDeMantenedor)
    return [];
  return [
    {
      type: 'project.policy_changed',
      data: {
        projectId: command.projectId,
        by: command.by,
        motivo: command.motivo,
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
