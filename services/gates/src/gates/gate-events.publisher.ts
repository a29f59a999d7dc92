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
    default: {
      const unknownEvent: never = event;
      return unknownEvent;
    }
  }
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
    outbox.event(wire.type, projectId, wire.data, { occurredAt: event.occurredAt });
  }
}
