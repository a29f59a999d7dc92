import { v7 as uuidv7 } from 'uuid';

/** Every event on the wire (SPEC §8). `data` is the type's own payload. */
export interface EventEnvelope<T = unknown> {
  eventId: string;
  type: string;
  schemaVersion: number;
  occurredAt: string;
  projectId: string;
  correlationId: string;
  causationId: string | null;
  data: T;
}

export interface EnvelopeOrigin {
  correlationId?: string;
  causationId?: string | null;
}

export function newId(): string {
  return uuidv7();
}

export function makeEnvelope<T>(
  type: string,
  projectId: string,
  data: T,
  opts: EnvelopeOrigin & { schemaVersion?: number; eventId?: string; occurredAt?: Date } = {},
): EventEnvelope<T> {
  const eventId = opts.eventId ?? newId();
  return {
    eventId,
    type,
    schemaVersion: opts.schemaVersion ?? 1,
    occurredAt: (opts.occurredAt ?? new Date()).toISOString(),
    projectId,
    correlationId: opts.correlationId ?? eventId,
    causationId: opts.causationId ?? null,
    data,
  };
}

/** The envelope that a handler's effects carry forward: same correlation, caused by `cause`. */
export function followOn(cause: Pick<EventEnvelope, 'eventId' | 'correlationId'>): EnvelopeOrigin {
  return { correlationId: cause.correlationId, causationId: cause.eventId };
}
