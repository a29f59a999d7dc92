import type { EntityManager } from 'typeorm';
import { eventSubject, type EventEnvelope } from '@openq/contracts';
import { durableName } from '@openq/messaging';

/**
 * Sets aside an inbound event the service cannot honour (e.g. the questions service refused the
 * question of a QA verdict): one row of the service's `dead_letter` table, in the inbox
 * transaction, with the reason. The message is then acked, never retried forever (SPEC §8).
 */
export async function deadLetter(
  manager: EntityManager,
  envelope: EventEnvelope,
  deliveries: number,
  why: { reason: string; message: string },
): Promise<void> {
  await manager.query(
    `INSERT INTO dead_letter (consumer, subject, stream_seq, message_id, reason, message, payload, deliveries)
      VALUES ($1, $2, NULL, $3, $4, $5, $6, $7)`,
    [
      durableName('gates', envelope.type),
      eventSubject(envelope.type, envelope.projectId),
      envelope.eventId,
      why.reason,
      why.message.slice(0, 2000),
      JSON.stringify(envelope).slice(0, 65_536),
      deliveries,
    ],
  );
}
