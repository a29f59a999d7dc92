import type { EventEnvelope } from '@openq/contracts';

/**
 * Which fact wrote a group of columns: the envelope's `occurredAt` and `eventId` (UUID v7, so equal
 * instants still order by time). A write applies only over an older version; see the migration.
 */
export interface FactVersion {
  /** ISO-8601 instant. */
  at: string;
  eventId: string;
}

export function versionOf(envelope: Pick<EventEnvelope, 'occurredAt' | 'eventId'>): FactVersion {
  return { at: envelope.occurredAt, eventId: envelope.eventId };
}

/** SQL: the version held in columns `<at>`/`<id>` is absent or older than `($n::timestamptz, $m::uuid)`. */
export function olderThan(atColumn: string, idColumn: string, atParam: number, idParam: number): string {
  return `(${atColumn} IS NULL OR (${atColumn}, ${idColumn}) < ($${atParam}::timestamptz, $${idParam}::uuid))`;
}
