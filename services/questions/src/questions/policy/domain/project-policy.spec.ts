import { deciderSpec } from '@openq/testing/decider';
import { projectPolicy, SEEDS_RULES, type ProjectPolicyCommand } from './project-policy';

const T0 = Date.parse('2026-12-02T10:00:00Z');
const at = (s: number) => new Date(T0 + s * 1000);
const { given, history } = deciderSpec(projectPolicy, at);

const change = (over: Partial<ProjectPolicyCommand> = {}): ProjectPolicyCommand => ({
  type: 'change',
  projectId: 'p1',
  by: 'mia',
  reason: 'release week',
  ...over,
});

describe('§12.1 project policies', () => {
  it("start with the seeds' rules: both conveniences off", () => {
    expect(projectPolicy.initialState).toEqual(SEEDS_RULES);
    expect(SEEDS_RULES).toEqual({ delegation: false, maintainerOverride: false });
  });

  it('a change names what it sets and keeps the other; the event carries both values, who and why', () => {
    given([])
      .when(change({ delegation: true }), 3)
      .then([
        {
          type: 'project.policy_changed',
          data: {
            projectId: 'p1',
            by: 'mia',
            reason: 'release week',
            delegation: true,
            maintainerOverride: false,
            changedAt: at(3).toISOString(),
          },
          occurredAt: at(3),
        },
      ]);
  });

  it('setting what is in force decides nothing; a change with neither policy is 400 corpo_invalido', () => {
    const on = history([change({ delegation: true })]);
    given(on)
      .when(change({ delegation: true }))
      .then([]);
    given(on).when(change()).then({ statusCode: 400, reason: 'corpo_invalido' });
    const { state } = given(on).when(change({ maintainerOverride: true, delegation: false }));
    expect(state).toEqual({ delegation: false, maintainerOverride: true });
  });
});
