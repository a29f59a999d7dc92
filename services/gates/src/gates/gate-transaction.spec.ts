import type { GateEvent } from './domain/gate-cycle';
import { toWire } from './gate-transaction';

const at = new Date(Date.UTC(2026, 11, 1));
const ref = { taskId: 't1', gate: 'qa' as const };

/** The domain speaks English; SPEC §5 puts the contract's Portuguese names on the wire. */
describe('gate events domain → wire', () => {
  it('gate.verdict_recorded carries the verdict as veredito', () => {
    const event: GateEvent = {
      type: 'gate.verdict_recorded',
      data: { ...ref, verdict: 'approved', correctionCount: 0, maxCorrections: 3, nextAction: 'run_secops' },
      occurredAt: at,
    };
    expect(toWire(event, 'p1')?.data).toEqual({
      ...ref,
      veredito: 'approved',
      correctionCount: 0,
      maxCorrections: 3,
      nextAction: 'run_secops',
    });
  });

  it('gate.rescue_parked carries idadeSegundos and motivo, and no idadeSegundos for a decision park', () => {
    const idle: GateEvent = {
      type: 'gate.rescue_parked',
      data: { ...ref, reason: 'idle', questionIds: [], ageSeconds: 7300, why: 'idle' },
      occurredAt: at,
    };
    expect(toWire(idle, 'p1')?.data).toEqual({
      ...ref,
      reason: 'idle',
      questionIds: [],
      idadeSegundos: 7300,
      motivo: 'idle',
    });
    const decision: GateEvent = {
      type: 'gate.rescue_parked',
      data: { ...ref, reason: 'user_decision', questionIds: ['q1'], why: 'waiting' },
      occurredAt: at,
    };
    expect(toWire(decision, 'p1')?.data).toEqual({
      ...ref,
      reason: 'user_decision',
      questionIds: ['q1'],
      motivo: 'waiting',
    });
  });

  it('gate.resumed carries motivo only for an override', () => {
    const base = { ...ref, questionIds: ['q2'], decisionEventIds: [], pendingChanges: [] };
    const override: GateEvent = {
      type: 'gate.resumed',
      data: { ...base, trigger: 'override', by: 'maria', why: 'confirmed by phone' },
      occurredAt: at,
    };
    expect(toWire(override, 'p1')?.data).toEqual({
      ...ref,
      trigger: 'override',
      questionIds: ['q2'],
      decisionEventIds: [],
      by: 'maria',
      motivo: 'confirmed by phone',
    });
    const human: GateEvent = { type: 'gate.resumed', data: { ...base, trigger: 'human' }, occurredAt: at };
    expect(toWire(human, 'p1')?.data).not.toHaveProperty('motivo');
  });

  it('gate.redispatch_requested carries idadeSegundos', () => {
    const event: GateEvent = {
      type: 'gate.redispatch_requested',
      data: { ...ref, ageSeconds: 1000 },
      occurredAt: at,
    };
    expect(toWire(event, 'p1')?.data).toEqual({ ...ref, idadeSegundos: 1000 });
  });
});
