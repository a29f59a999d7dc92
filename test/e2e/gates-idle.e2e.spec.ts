import { OpenqEvent } from '@openq/contracts';
import type { DomainService } from '@openq/platform';
import { waitFor } from '@openq/testing';
import { startGates } from '../../services/gates/src/gates-service';
import { IdleSweep } from '../../services/gates/src/gates/commands/sweep-idle/idle-sweep';
import { ask, emitted, gatesOf, publishVerdict, resume, startGate } from '../support/gates';
import { Stack } from '../support/stack';

const STALE_S = 60;
const PARK_S = 120;
let stack: Stack;

beforeAll(async () => {
  stack = await Stack.start({
    services: ['questions', 'gates'],
    env: { GATE_STALE_AFTER_S: String(STALE_S), GATE_PARK_AFTER_S: String(PARK_S) },
  });
});
afterAll(() => stack.stop());

const sweepOf = (service: DomainService) => service.app.get(IdleSweep);
const inSeconds = (s: number) => new Date(Date.now() + s * 1000);

describe('gates: idle sweep (ADR 0207)', () => {
  it('re-dispatches a stale cycle once, parks an idle one, and a developer resumes it', async () => {
    const P = 'projidle';
    await startGate(stack, P, 'T1');
    await startGate(stack, P, 'T2');
    await publishVerdict(stack, P, 'T2', 'r1', [ask('rules', 'Is the archive public?', 'No')]);
    await waitFor(async () => (await gatesOf(stack, P, 'T2')).body[0]?.waitingForYou === true, {
      what: 'T2 parked on a decision',
    });
    const sweep = sweepOf(stack.service('gates'));

    await sweep.sweepOnce(inSeconds(STALE_S + 30));
    await sweep.sweepOnce(inSeconds(STALE_S + 40)); // same stale window: not again
    expect(await emitted(stack, OpenqEvent.GateRedispatchRequested, P, 'T1')).toEqual([
      { taskId: 'T1', gate: 'qa', idadeSegundos: expect.any(Number) },
    ]);

    await sweep.sweepOnce(inSeconds(PARK_S + 60));
    const parked = await emitted(stack, OpenqEvent.GateRescueParked, P, 'T1');
    expect(parked).toEqual([
      {
        taskId: 'T1',
        gate: 'qa',
        reason: 'idle',
        questionIds: [],
        idadeSegundos: expect.any(Number),
        motivo: expect.stringContaining('no agent activity'),
      },
    ]);
    expect((parked[0] as { idadeSegundos: number }).idadeSegundos).toBeGreaterThan(PARK_S);
    await stack.events.waitForType(OpenqEvent.GateRescueParked, 2); // T2's decision park, then T1's idle park
    expect((await gatesOf(stack, P, 'T1')).body[0]).toMatchObject({
      state: 'parked',
      parkedReason: 'idle',
      waitingForYou: false,
    });

    // The cycle parked on the user's decision is never re-dispatched or parked again by the sweep.
    await sweep.sweepOnce(inSeconds(100 * PARK_S));
    expect(await emitted(stack, OpenqEvent.GateRedispatchRequested, P, 'T2')).toHaveLength(0);
    expect(await emitted(stack, OpenqEvent.GateRescueParked, P, 'T2')).toEqual([
      expect.objectContaining({ reason: 'user_decision' }),
    ]);

    const waiting = await stack.http('GET', `/projects/${P}/waiting`, {
      token: stack.token('viewer-1', P, 'viewer'),
    });
    expect(waiting.body).toMatchObject({ total: 2 });
    expect(waiting.body.items).toContainEqual(
      expect.objectContaining({ taskId: 'T1', parkedReason: 'idle', waitingForYou: false }),
    );

    expect(await resume(stack, P, 'T1', 'viewer')).toMatchObject({ status: 403 });
    expect(await resume(stack, P, 'T1')).toMatchObject({ status: 200, body: { ok: true } });
    expect(await emitted(stack, OpenqEvent.GateResumed, P, 'T1')).toEqual([
      { taskId: 'T1', gate: 'qa', trigger: 'human', questionIds: [], decisionEventIds: [] },
    ]);
    expect((await gatesOf(stack, P, 'T1')).body[0]).toMatchObject({
      state: 'running',
      parkedReason: null,
      correctionCount: 0,
    });
    expect(await resume(stack, P, 'T1')).toMatchObject({
      status: 409,
      body: { reason: 'gate_nao_estacionado' },
    });
    expect(await resume(stack, P, 'T2')).toMatchObject({
      status: 409,
      body: { reason: 'gate_aguarda_decisao', questionIds: [expect.any(String)] },
    });
    await waitFor(() => stack.events.ofType(OpenqEvent.GateResumed).some((e) => e.projectId === P), {
      what: 'gate.resumed published',
    });
  });

  it('two replicas sweeping at once park each idle cycle exactly once', async () => {
    const P = 'projreplicas';
    const tasks = Array.from({ length: 12 }, (_, i) => `R${i}`);
    for (const t of tasks) await startGate(stack, P, t);
    const second = await startGates(stack.config, { embedded: true });
    try {
      const at = inSeconds(PARK_S + 60);
      const reports = await Promise.all([
        sweepOf(stack.service('gates')).sweepOnce(at, 2),
        sweepOf(second).sweepOnce(at, 2),
      ]);
      for (const t of tasks) expect(await emitted(stack, OpenqEvent.GateRescueParked, P, t)).toHaveLength(1);
      expect(reports[0]!.parked + reports[1]!.parked).toBeGreaterThanOrEqual(tasks.length);
      const parkedHere = () =>
        stack.events.ofType(OpenqEvent.GateRescueParked).filter((e) => e.projectId === P);
      await waitFor(() => parkedHere().length >= tasks.length, { what: 'rescue_parked published' });
      expect(parkedHere()).toHaveLength(tasks.length);
    } finally {
      await second.close();
    }
  });
});
