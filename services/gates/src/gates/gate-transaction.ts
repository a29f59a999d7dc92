import type { EntityManager } from 'typeorm';
import { DeciderTransaction, type DeciderSlice, type OutboxWriter } from '@openq/messaging';
import { gateCycle, type GateCommand, type GateCycle, type GateEvent } from './domain/gate-cycle';
import { toWire, type WireGateEvent } from './gate-events.publisher';
import { AnsweredQuestions } from './store/answered-questions';
import { GateCycleStore } from './store/gate-cycle.store';
import { GateHistory } from './store/gate-history';

function gateCycleSlice(
  cycles: GateCycleStore,
  history: GateHistory,
): DeciderSlice<GateCommand, GateCycle | null, GateEvent, WireGateEvent> {
  return {
    decider: gateCycle,
    projectOf: (cycle) => cycle?.projectId ?? null,
    toWire,
    async save(cycle, { projectId, published }) {
      if (!cycle) return;
      await cycles.save(cycle);
      // What leaves the service is also the gate's history ([openq] §11.1), in the same transaction.
      await history.append(projectId, published);
    },
  };
}

/**
 * One transaction of the gates service: its stores and the gate cycles' decider transaction.
 * Every change of a cycle goes through `decide` (or `commit`): decide → evolve → save → queue
 * the published events, under the cycle's row lock that the caller took when it loaded the state.
 */
export class GateTransaction extends DeciderTransaction<
  GateCommand,
  GateCycle | null,
  GateEvent,
  WireGateEvent
> {
  readonly cycles: GateCycleStore;
  readonly answers: AnsweredQuestions;
  readonly history: GateHistory;

  constructor(manager: EntityManager, outbox: OutboxWriter) {
    const cycles = new GateCycleStore(manager);
    const history = new GateHistory(manager);
    super(gateCycleSlice(cycles, history), outbox);
    this.cycles = cycles;
    this.history = history;
    this.answers = new AnsweredQuestions(manager);
  }
}
