import { deciderSpec } from '@openq/testing/decider';
import { DELEGATION_MAX_DAYS } from '@openq/contracts';
import {
  delegation,
  delegationStatus,
  standingOf,
  type DelegationCommand,
  type DelegationEvent,
} from './delegation';

const T0 = Date.parse('2026-11-30T10:00:00Z');
const at = (s: number) => new Date(T0 + s * 1000);
const DAY_S = 24 * 60 * 60;
const { given, history } = deciderSpec(delegation, at);

const grant = (over: Partial<Extract<DelegationCommand, { type: 'grant' }>> = {}): DelegationCommand => ({
  type: 'grant',
  projectId: 'p1',
  grantId: 'g1',
  from: 'ana',
  to: 'bia',
  until: at(3 * DAY_S).toISOString(),
  delegationOn: true,
  ...over,
});
const revoke = (by = 'ana', projectId = 'p1'): DelegationCommand => ({
  type: 'revoke',
  projectId,
  grantId: 'g1',
  by,
});

/** g1 granted at step 0 (ana → bia, three days). */
const granted = (): DelegationEvent[] => history([grant()]);

describe('delegation: grant', () => {
  it("§12.1 is refused 409 delegacao_desligada while the project keeps the seeds' rule", () => {
    given([])
      .when(grant({ delegationOn: false }))
      .then({ statusCode: 409, reason: 'delegacao_desligada' });
  });

  it('records the grant: the caller is from, until normalised to ISO', () => {
    given([])
      .when(grant({ until: '2026-12-03T10:00:00Z' }), 7)
      .then([
        {
          type: 'delegation.granted',
          data: {
            grantId: 'g1',
            projectId: 'p1',
            from: 'ana',
            to: 'bia',
            until: '2026-12-03T10:00:00.000Z',
            grantedAt: at(7).toISOString(),
          },
          occurredAt: at(7),
        },
      ]);
  });

  it.each([
    ['to yourself', grant({ to: 'ana' }), 'to'],
    ['until in the past', grant({ until: at(99).toISOString() }), 'until'],
    ['until now', grant({ until: at(100).toISOString() }), 'until'],
    [
      'until past the ceiling',
      grant({ until: at(100 + DELEGATION_MAX_DAYS * DAY_S + 1).toISOString() }),
      'until',
    ],
    ['until not a date', grant({ until: 'soon' }), 'until'],
  ] as const)('refuses %s: 400 delegacao_invalida naming the field', (_name, command, field) => {
    given([]).when(command, 100).then({ statusCode: 400, reason: 'delegacao_invalida', details: { field } });
  });

  it('accepts exactly the ceiling', () => {
    const until = at(100 + DELEGATION_MAX_DAYS * DAY_S).toISOString();
    expect(given([]).when(grant({ until }), 100).types).toEqual(['delegation.granted']);
  });

  it('the same grant id again decides nothing: the first grant stands', () => {
    given(granted())
      .when(grant({ to: 'caio' }))
      .then([]);
  });
});

describe('delegation: revoke', () => {
  it('by the grantor: delegation.revoked, and the grant reads revoked', () => {
    const then = given(granted()).when(revoke(), 9);
    then.then([
      {
        type: 'delegation.revoked',
        data: { grantId: 'g1', projectId: 'p1', by: 'ana', revokedAt: at(9).toISOString() },
        occurredAt: at(9),
      },
    ]);
    expect(delegationStatus(then.state!, at(10))).toBe('revoked');
  });

  it.each([
    ['an unknown grant', [], revoke(), 404, 'delegacao_nao_encontrada'],
    ['a grant of another project', granted(), revoke('ana', 'p2'), 404, 'delegacao_nao_encontrada'],
    ['by the delegate', granted(), revoke('bia'), 403, 'so_quem_delegou'],
    ['by a third person', granted(), revoke('caio'), 403, 'so_quem_delegou'],
    ['twice', history([grant(), revoke()]), revoke(), 409, 'delegacao_ja_revogada'],
  ] as const)('refuses %s: %d %s', (_name, events, command, statusCode, reason) => {
    given([...events])
      .when(command)
      .then({ statusCode, reason });
  });

  it('an expired grant may still be revoked (the record says so)', () => {
    expect(given(granted()).when(revoke(), 4 * DAY_S).types).toEqual(['delegation.revoked']);
  });
});

describe('standingOf: what grants say at an instant', () => {
  const live = given(granted()).state!;
  const revoked = given(history([grant(), revoke()])).state!;

  it('live until `until` (exclusive), then expired; revoked once revoked', () => {
    expect(standingOf([live], at(3 * DAY_S - 1)).kind).toBe('live');
    expect(standingOf([live], at(3 * DAY_S)).kind).toBe('expired');
    expect(standingOf([revoked], at(10)).kind).toBe('revoked');
    expect(standingOf([], at(10))).toEqual({ kind: 'none' });
  });

  it('any live grant wins; else the newest grant says why', () => {
    const newer = {
      ...revoked,
      granted: { ...revoked.granted, grantId: 'g2', grantedAt: at(50).toISOString() },
    };
    expect(standingOf([newer, live], at(60))).toMatchObject({ kind: 'live', grant: { grantId: 'g1' } });
    expect(standingOf([live, newer], at(4 * DAY_S)).kind).toBe('revoked');
  });
});
