import {
  DELEGATION_MAX_DAYS,
  epochMillis,
  isoOfEpochMillis,
  refusal,
  type Decider,
  type Decision,
  type DelegationGranted,
  type DelegationRevoked,
  type DomainEvent,
  type Refusal,
} from '@openq/contracts';
import { DELEGATION_OFF } from '../../policy/domain/project-policy';

/**
 * §11.6 a delegation grant folded from its log: `from` lets `to` answer, by click, the questions
 * of the sessions `from` led in the project, until `until`, unless revoked first.
 */
export interface Delegation {
  granted: DelegationGranted;
  revoked: DelegationRevoked | null;
}

export type DelegationWasGranted = DomainEvent<'delegation.granted', DelegationGranted>;
export type DelegationWasRevoked = DomainEvent<'delegation.revoked', DelegationRevoked>;
export type DelegationEvent = DelegationWasGranted | DelegationWasRevoked;

export type DelegationCommand =
  | {
      type: 'grant';
      projectId: string;
      grantId: string;
      from: string;
      to: string;
      until: string;
      /** §12.1 the project's `delegacao` policy, read under its lock in the grant's transaction. */
      delegationOn: boolean;
    }
  | { type: 'revoke'; projectId: string; grantId: string; by: string };

const DAY_MS = 24 * 60 * 60 * 1000;

/** 400 `delegacao_invalida`, naming the field at fault. */
const INVALID = (field: 'to' | 'until', message: string): Refusal =>
  refusal(400, 'delegacao_invalida', `${field}: ${message}`, { field });

export const DELEGATION_NOT_FOUND = (): Refusal =>
  refusal(404, 'delegacao_nao_encontrada', 'no such delegation in this project');

const ALREADY_REVOKED = (): Refusal =>
  refusal(409, 'delegacao_ja_revogada', 'this delegation was already revoked');

const NOT_THE_GRANTOR = (): Refusal =>
  refusal(403, 'so_quem_delegou', 'only the person who granted a delegation can revoke it');

export function evolve(state: Delegation | null, event: DelegationEvent): Delegation | null {
  switch (event.type) {
    case 'delegation.granted':
      return { granted: event.data, revoked: null };
    case 'delegation.revoked':
      return state ? { ...state, revoked: event.data } : state;
    default: {
      const unreachable: never = event;
      return unreachable;
    }
  }
}

/**
 * A grant: `from` is always the caller (the command has no other way to say it), `to` another
 * person, `until` after `now` and at most `DELEGATION_MAX_DAYS` ahead. The same grant id again
 * decides nothing (the first grant stands). §12.1 while the project's delegation policy is off, a
 * grant is refused 409 `delegacao_desligada` (the seeds' rule: only the author answers).
 */
function decideGrant(
  command: Extract<DelegationCommand, { type: 'grant' }>,
  state: Delegation | null,
  now: Date,
): Decision<DelegationEvent> {
  if (state) return [];
  if (!command.delegationOn) return DELEGATION_OFF(409);
  if (command.to === command.from) return INVALID('to', 'you cannot delegate to yourself');
  const until = epochMillis(command.until);
  if (until === null) return INVALID('until', 'must be an ISO-8601 instant');
  if (until <= now.getTime()) return INVALID('until', 'must be in the future');
  if (until > now.getTime() + DELEGATION_MAX_DAYS * DAY_MS)
    return INVALID('until', `must be at most ${DELEGATION_MAX_DAYS} days ahead`);
  return [
    {
      type: 'delegation.granted',
      data: {
        grantId: command.grantId,
        projectId: command.projectId,
        from: command.from,
        to: command.to,
        until: isoOfEpochMillis(until),
        grantedAt: now.toISOString(),
      },
      occurredAt: now,
    },
  ];
}

/** Order of checks: 404 (another project's grant is the same 404), 403 not the grantor, 409 revoked. */
function decideRevoke(
  command: Extract<DelegationCommand, { type: 'revoke' }>,
  state: Delegation | null,
  now: Date,
): Decision<DelegationEvent> {
  if (!state || state.granted.projectId !== command.projectId) return DELEGATION_NOT_FOUND();
  if (command.by !== state.granted.from) return NOT_THE_GRANTOR();
  if (state.revoked) return ALREADY_REVOKED();
  return [
    {
      type: 'delegation.revoked',
      data: {
        grantId: state.granted.grantId,
        projectId: command.projectId,
        by: command.by,
        revokedAt: now.toISOString(),
      },
      occurredAt: now,
    },
  ];
}

export function decide(
  command: DelegationCommand,
  state: Delegation | null,
  now: Date,
): Decision<DelegationEvent> {
  switch (command.type) {
    case 'grant':
      return decideGrant(command, state, now);
    case 'revoke':
      return decideRevoke(command, state, now);
    default: {
      const unknownCommand: never = command;
      return unknownCommand;
    }
  }
}

/** A delegation grant on the decider kit; `null` is a grant never made. */
export const delegation: Decider<DelegationCommand, Delegation | null, DelegationEvent> = {
  initialState: null,
  decide,
  evolve,
};

export type DelegationStatus = 'active' | 'expired' | 'revoked';

/** Where a grant stands at `now`: revoked wins over expired (the grantor's act is the reason to tell). */
export function delegationStatus(grant: Delegation, now: Date): DelegationStatus {
  if (grant.revoked) return 'revoked';
  return (epochMillis(grant.granted.until) ?? Number.NaN) > now.getTime() ? 'active' : 'expired';
}

/**
 * What the grants from a question's session author to a clicker say at `now` (§11.6): the live
 * one (the newest, if several), else why none is live — of the newest grant, revoked or expired
 * — else none at all.
 */
export type Standing =
  | { kind: 'live'; grant: DelegationGranted }
  | { kind: 'revoked' | 'expired'; grant: DelegationGranted }
  | { kind: 'none' };

/** Newest grant first; grants of one instant by id, descending (UUID v7: still time order). */
export function newestGrantFirst(a: Delegation, b: Delegation): number {
  const byTime =
    (epochMillis(b.granted.grantedAt) ?? Number.NaN) - (epochMillis(a.granted.grantedAt) ?? Number.NaN);
  if (byTime !== 0) return byTime;
  return a.granted.grantId === b.granted.grantId ? 0 : a.granted.grantId < b.granted.grantId ? 1 : -1;
}

export function standingOf(grants: readonly Delegation[], now: Date): Standing {
  const newestFirst = [...grants].sort(newestGrantFirst);
  const live = newestFirst.find((g) => delegationStatus(g, now) === 'active');
  if (live) return { kind: 'live', grant: live.granted };
  const newest = newestFirst[0];
  if (!newest) return { kind: 'none' };
  return { kind: delegationStatus(newest, now) as 'revoked' | 'expired', grant: newest.granted };
}
