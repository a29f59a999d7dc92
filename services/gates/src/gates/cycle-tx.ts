import type { EntityManager } from 'typeorm';
import { isRefusal, type Refusal } from '@openq/contracts';
import type { OutboxWriter } from '@openq/messaging';
import { applyAll, decide, type GateCommand, type GateCycle, type GateEvent } from './domain/gate-cycle';
import { publishGateEvents, wireEvents } from './gate-events.publisher';
import { AnsweredQuestions } from './store/answered-questions';
import { GateCycleStore } from './store/gate-cycle.store';
import { GateHistory } from './store/gate-history';

export interface Stepped {
  state: GateCycle | null;
  events: GateEvent[];
}

/**
 * One transaction of the gates service: its stores and its outbox. Every change of a cycle goes
 * through `step` (or `commit`): decide → evolve → save → queue the published events, under the
 * cycle's row lock that the caller took when it loaded the state.
 */
export class CycleTx {
  readonly cycles: GateCycleStore;
  readonly answers: AnsweredQuestions;
  readonly history: GateHistory;

  constructor(
    readonly manager: EntityManager,
    readonly outbox: OutboxWriter,
  ) {
    this.cycles = new GateCycleStore(manager);
    this.answers = new AnsweredQuestions(manager);
    this.history = new GateHistory(manager);
  }

  async step(state: GateCycle | null, command: GateCommand, now: Date): Promise<Stepped | Refusal> {
    const decision = decide(command, state, now);
    if (isRefusal(decision)) return decision;
    return this.commit(state, decision);
  }

  /** Saves and publishes events already decided (a handler that decides in several steps). */
  async commit(state: GateCycle | null, events: GateEvent[]): Promise<Stepped> {
    const next = applyAll(state, events);
    if (events.length > 0 && next) {
      await this.cycles.save(next);
      // What leaves the service is also the gate's history ([openq] §11.1), in the same transaction.
      const wire = wireEvents(events);
      publishGateEvents(this.outbox, next.projectId, wire);
      await this.history.append(next.projectId, wire);
    }
    return { state: next, events };
  }
}
