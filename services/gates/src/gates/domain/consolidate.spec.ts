import { consolidate, type Verdict } from './consolidate';

describe('consolidate (QA Lead)', () => {
  const table: Array<[readonly Verdict[], Verdict | null]> = [
    [['approved'], 'approved'],
    [['approved', 'approved', 'approved'], 'approved'],
    [['changes_requested'], 'changes_requested'],
    [['approved', 'changes_requested'], 'changes_requested'],
    [['changes_requested', 'changes_requested'], 'changes_requested'],
    [['approved', 'needs_user_decision'], 'needs_user_decision'],
    [['changes_requested', 'needs_user_decision'], 'needs_user_decision'],
    [['needs_user_decision', 'changes_requested', 'approved'], 'needs_user_decision'],
    [['blocked'], 'blocked'],
    [['approved', 'blocked'], 'blocked'],
    [['changes_requested', 'blocked'], 'blocked'],
    [['needs_user_decision', 'blocked'], 'blocked'],
    [['approved', 'changes_requested', 'needs_user_decision', 'blocked'], 'blocked'],
    [[], null],
  ];

  it.each(table)('%j → %s', (verdicts, expected) => {
    expect(consolidate(verdicts)).toBe(expected);
  });

  it('does not depend on the order of the subspecialties', () => {
    expect(consolidate(['blocked', 'approved'])).toBe(consolidate(['approved', 'blocked']));
    expect(consolidate(['needs_user_decision', 'changes_requested'])).toBe(
      consolidate(['changes_requested', 'needs_user_decision']),
    );
  });
});
