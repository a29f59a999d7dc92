import type { EntityManager } from 'typeorm';
import { eventSubject, makeEnvelope, type EnvelopeOrigin, type EventEnvelope } from '@openq/contracts';
import { currentScope, traceHeaders } from './trace-context';

/**
 * Writes events to the service's outbox inside the caller's transaction: the only way an
 * event leaves a service (ARCHITECTURE rule 3). The relay publishes them after commit.
 */
export class OutboxWriter {
  private readonly pending: EventEnvelope[] = [];
  private readonly origin: EnvelopeOrigin;

  /**
   * Inside a unit of work (an inbound event, a request) the events default to its correlation
   * id, and the rows carry its trace context (`traceparent`), which the relay publishes as headers.
   */
  constructor(
    private readonly manager: EntityManager,
    origin: EnvelopeOrigin = {},
    private readonly headers: Record<string, string> = traceHeaders(),
  ) {
    const correlationId = origin.correlationId ?? currentScope()?.correlationId ?? undefined;
    this.origin = correlationId ? { ...origin, correlationId } : origin;
  }

  /** Queues an event; written by `flush` (the transport flushes before commit). */
  event<T>(
    type: string,
    projectId: string,
    data: T,
    opts: { eventId?: string; occurredAt?: Date } = {},
  ): EventEnvelope<T> {
    const envelope = makeEnvelope(type, projectId, data, { ...this.origin, ...opts });
    this.pending.push(envelope);
    return envelope;
  }

  get queued(): readonly EventEnvelope[] {
    return this.pending;
  }

  async flush(): Promise<void> {
    if (this.pending.length === 0) return;
    const batch = this.pending.splice(0);
    await appendToOutbox(this.manager, batch, this.headers);
  }
}

/** Inserts envelopes as outbox rows in one statement. */
export async function appendToOutbox(
  manager: EntityManager,
  envelopes: EventEnvelope[],
  headers: Record<string, string> = {},
): Promise<void> {
  if (envelopes.length === 0) return;
  const values: unknown[] = [];
  const rows = envelopes.map((e, i) => {
    values.push(e.eventId, eventSubject(e.type, e.projectId), JSON.stringify(e), JSON.stringify(headers));
    const b = i * 4;
    return `($${b + 1}, $${b + 2}, $${b + 3}::jsonb, $${b + 4}::jsonb)`;
  });
  await manager.query(
    `INSERT INTO outbox (event_id, subject, envelope, headers) VALUES ${rows.join(', ')}`,
    values,
  );
}

/**
 * Runs `work` in one transaction with an outbox bound to it; the queued events are written
 * before commit, so the effect and its events are stored together or not at all.
 */
export async function withOutbox<T>(
  dataSource: { transaction<R>(run: (manager: EntityManager) => Promise<R>): Promise<R> },
  origin: EnvelopeOrigin,
  work: (manager: EntityManager, outbox: OutboxWriter) => Promise<T>,
): Promise<T> {
  return dataSource.transaction(async (manager) => {
    const outbox = new OutboxWriter(manager, origin);
    const result = await work(manager, outbox);
    await outbox.flush();
    return result;
  });
}
