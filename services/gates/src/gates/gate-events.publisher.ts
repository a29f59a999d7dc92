import { v5 as uuidv5 } from 'uuid';
import { OpenqEvent, type OpenqEventDataMap } from '@openq/contracts';
import type { OutboxWriter } from '@openq/messaging';
import { isPublished, type GateEvent, type PublishedGateEvent } from './domain/gate-cycle';

type WireEvent = {
  [T in PublishedGateEvent['type']]: { type: T; data: OpenqEventDataMap[T] };
}[PublishedGateEvent['type']];

/** A published domain event as SPEC §5 puts it on the wire (`projectId` travels in the envelope). */
function toWire(event: PublishedGateEvent): WireEvent {
  switch (event.type) {
    case 'gate.verdict_recorded':
      return { type: OpenqEvent.GateVerdictRecorded, data: { ...event.data } };
    case 'gate.rescue_parked':
      return {
        type: OpenqEvent.GateRescueParked,
        data: { ...event.data, questionIds: [...event.data.questionIds] },
      };
    case 'gate.resumed': {
      const { pendingChanges, ...rest } = event.data;
      // [openq] the changes of the round that parked go back to QA; absent when there were none.
      const changes = pendingChanges.map((c) => ({
        subspecialty: c.subspecialty,
        resumo: c.resumo,
        itens: [...c.itens],
      }));
      return {
        type: OpenqEvent.GateResumed,
        data: { ...rest, ...(changes.length > 0 ? { pendingChanges: changes } : {}) },
      };
    }
    case 'gate.redispatch_requested':
      return { type: OpenqEvent.GateRedispatchRequested, data: { ...event.data } };
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
function eventIdOf(projectId: string, event: PublishedGateEvent): string | undefined {
  if (event.type !== 'gate.verdict_rejected') return undefined;
  const { taskId, gate, roundId } = event.data;
  return uuidv5(JSON.stringify([projectId, event.type, taskId, gate, roundId]), GATE_EVENT_ID_NAMESPACE);
}

/** Queues the decision's published events on the outbox, in order; the others only change state. */
export function publishGateEvents(
  outbox: OutboxWriter,
  projectId: string,
  events: readonly GateEvent[],
): void {
  for (const event of events) {
    if (!isPublished(event)) continue;
    const wire = toWire(event);
    const eventId = eventIdOf(projectId, event);
    outbox.event(wire.type, projectId, wire.data, {
      occurredAt: event.occurredAt,
      ...(eventId ? { eventId } : {}),
    });
  }
}
