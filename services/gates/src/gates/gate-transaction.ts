import type { EntityManager } from 'typeorm';
import { v5 as uuidv5 } from 'uuid';
import { OpenqEvent, type OpenqEventDataMap } from '@openq/contracts';
import {
  DeciderTransaction,
  type DeciderSlice,
  type OutboxWriter,
  type WireEvent as OutboxEvent,
} from '@openq/messaging';
import {
  gateCycle,
  isPublished,
  type GateCommand,
  type GateCycle,
  type GateEvent,
  type PublishedGateEvent,
} from './domain/gate-cycle';
import { AnsweredQuestions } from './store/answered-questions.store';
import { cycleKeyOf, GateCycleStore } from './store/gate-cycle.store';
import { GateHistory } from './store/gate-history.store';

type WireEvent = {
  [T in PublishedGateEvent['type']]: { type: T; data: OpenqEventDataMap[T] };
}[PublishedGateEvent['type']];

/** A published event as it goes on the wire, with when it happened (the outbox's and the history's row). */
export type WireGateEvent = WireEvent & Omit<OutboxEvent, 'type' | 'data'>;

/** A published domain event as SPEC §5 puts it on the wire (`projectId` travels in the envelope). */
function wireOf(event: PublishedGateEvent): WireEvent {
  switch (event.type) {
    case 'gate.verdict_recorded': {
      const { verdict, ...rest } = event.data;
      return { type: OpenqEvent.GateVerdictRecorded, data: { ...rest, veredito: verdict } };
    }
    case 'gate.rescue_parked': {
      const { ageSeconds, why, ...rest } = event.data;
      return {
        type: OpenqEvent.GateRescueParked,
        data: {
          ...rest,
          questionIds: [...rest.questionIds],
          ...(ageSeconds !== undefined ? { idadeSegundos: ageSeconds } : {}),
          motivo: why,
        },
      };
    }
    case 'gate.resumed': {
      const { pendingChanges, why, ...rest } = event.data;
      // [openq] the changes of the round that parked go back to QA; absent when there were none.
      const changes = pendingChanges.map((c) => ({
        subspecialty: c.subspecialty,
        resumo: c.summary,
        itens: [...c.items],
      }));
      return {
        type: OpenqEvent.GateResumed,
        data: {
          ...rest,
          ...(why !== undefined ? { motivo: why } : {}),
          ...(changes.length > 0 ? { pendingChanges: changes } : {}),
        },
      };
    }
    case 'gate.redispatch_requested': {
      const { ageSeconds, ...rest } = event.data;
      return { type: OpenqEvent.GateRedispatchRequested, data: { ...rest, idadeSegundos: ageSeconds } };
    }
    case 'gate.verdict_rejected':
      return { type: OpenqEvent.GateVerdictRejected, data: { ...event.data } };
    default: {
      const unknownEvent: never = event;
      return unknownEvent;
    }
  }
}

/** [openq] The namespace of gates' derived event ids (uuid v5): fixed forever. */
const GATE_EVENT_ID_NAMESPACE = 'a4f0c1e2-5b7d-4c3a-9e8f-2d6b1a0c7e93';

/**
 * A rejection is the one published event born of a round and nothing else, so its id is derived
 * from the round: however often the verdict is delivered, one id, one message on the stream.
 */
function eventIdOf(projectId: string, event: WireEvent): string | undefined {
  if (event.type !== OpenqEvent.GateVerdictRejected) return undefined;
  const { taskId, gate, roundId } = event.data;
  return uuidv5(JSON.stringify([projectId, event.type, taskId, gate, roundId]), GATE_EVENT_ID_NAMESPACE);
}

/** The gate cycles' domain → wire map: a published event as SPEC puts it on the wire; null for the others. */
export function toWire(event: GateEvent, projectId: string): WireGateEvent | null {
  if (!isPublished(event)) return null;
  const wire = wireOf(event);
  const eventId = eventIdOf(projectId, wire);
  return { ...wire, occurredAt: event.occurredAt, ...(eventId ? { eventId } : {}) };
}

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
    // A batch's cycles as rows of one statement, each in its last state (one decided twice in the
    // batch is written once), and their histories in the batch's order.
    async saveAll(entries) {
      const last = new Map<string, GateCycle>();
      for (const { state } of entries) if (state) last.set(cycleKeyOf(state), state);
      for (const cycle of last.values()) await cycles.save(cycle);
      for (const { state, written } of entries)
        if (state) await history.append(written.projectId, written.published);
      return entries.map(() => undefined);
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
