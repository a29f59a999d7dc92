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
    await appendOutboxRows(this.manager, this.take());
  }

  /** Hands over the queued events as rows, with this unit of work's headers, without writing them. */
  take(): OutboxRow[] {
    return this.pending.splice(0).map((envelope) => ({ envelope, headers: this.headers }));
  }
}

/** An outbox row to write: the envelope and the headers the relay publishes it with. */
export interface OutboxRow {
  envelope: EventEnvelope;
  headers: Record<string, string>;
}

/** Inserts envelopes as outbox rows in one statement. */
export async function appendToOutbox(
  manager: EntityManager,
  envelopes: EventEnvelope[],
  headers: Record<string, string> = {},
): Promise<void> {
  await appendOutboxRows(
    manager,
    envelopes.map((envelope) => ({ envelope, headers })),
  );
}

/** Four parameters a row; PostgreSQL takes at most 65,535 in one statement. */
const MAX_ROWS_PER_INSERT = 16_000;

/** Inserts rows, each with its own headers (several units of work in one transaction), in one statement. */
export async function appendOutboxRows(manager: EntityManager, outboxRows: OutboxRow[]): Promise<void> {
  if (outboxRows.length === 0) return;
  if (outboxRows.length > MAX_ROWS_PER_INSERT) {
    for (let at = 0; at < outboxRows.length; at += MAX_ROWS_PER_INSERT)
      await appendOutboxRows(manager, outboxRows.slice(at, at + MAX_ROWS_PER_INSERT));
    return;
  }
  const values: unknown[] = [];
  const rows = outboxRows.map(({ envelope: e, headers }, i) => {
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
