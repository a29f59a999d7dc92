import type { EntityManager } from 'typeorm';
import { eventSubject, makeEnvelope, type EnvelopeOrigin, type EventEnvelope } from '@openq/contracts';
import { currentScope, traceHeaders } from './trace-context';

/**
 * Writes events to the service's outbox inside the caller's transaction: the only way an
 * event leaves a service (ARCHITECTURE rule 3). The relay publishes them after commit.
 */
export class OutboxWriter {
  /** Shared with the writers of the units of a group (`forUnit`): one flush, one statement. */
  private pending: OutboxRow[] = [];
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
    this.pending.push({ envelope, headers: this.headers });
    return envelope;
  }

  get queued(): readonly EventEnvelope[] {
    return this.pending.map((row) => row.envelope);
  }

  /**
   * A writer for one unit of work of a group transaction (`transactionGroups`), created in that
   * unit's scope: its events carry the unit's correlation id and its rows the unit's trace
   * headers, and they are queued here, so this writer's one `flush` writes the whole group.
   */
  forUnit(origin: EnvelopeOrigin = {}): OutboxWriter {
    const unit = new OutboxWriter(this.manager, origin);
    unit.pending = this.pending;
    return unit;
  }

  async flush(): Promise<void> {
    if (this.pending.length === 0) return;
    await insertOutboxRows(this.manager, this.pending.splice(0));
  }
}

interface OutboxRow {
  envelope: EventEnvelope;
  headers: Record<string, string>;
}

/** Inserts envelopes as outbox rows in one statement. */
export async function appendToOutbox(
  manager: EntityManager,
  envelopes: EventEnvelope[],
  headers: Record<string, string> = {},
): Promise<void> {
  await insertOutboxRows(
    manager,
    envelopes.map((envelope) => ({ envelope, headers })),
  );
}

/** Inserts outbox rows, each with its own headers, in one statement. */
async function insertOutboxRows(manager: EntityManager, outboxRows: readonly OutboxRow[]): Promise<void> {
  if (outboxRows.length === 0) return;
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
