import { GATES, GATE_NEXT_ACTIONS, GATE_TABLE, nextActionOnApproval } from './vocabulary';

describe('the gate table (SPEC §5)', () => {
  it('lists the gates in pipeline order, each next gate a later one', () => {
    expect(GATES).toEqual(['qa', 'secops']);
    GATE_TABLE.forEach((row, i) => {
      if (row.next !== null) expect(GATES.indexOf(row.next)).toBeGreaterThan(i);
    });
    expect(GATE_TABLE.filter((row) => row.next === null)).toHaveLength(1);
  });

  it('derives the next actions of the wire, in their order', () => {
    expect(GATE_NEXT_ACTIONS).toEqual(['correct', 'run_secops', 'done', 'blocked', 'parked']);
  });

  it('after an approval runs the next gate, and is done after the last', () => {
    expect(nextActionOnApproval('qa')).toBe('run_secops');
    expect(nextActionOnApproval('secops')).toBe('done');
  });
});
