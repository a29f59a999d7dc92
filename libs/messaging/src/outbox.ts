import type { EntityManager } from 'typeorm';
import { sendAheadAfterWrites } from '@openq/persistence';
import { eventSubject, makeEnvelope, type EnvelopeOrigin, type EventEnvelope } from '@openq/contracts';
import {
  AFTER_COMMIT_GRACE_MS,
  afterCommitPublisherOf,
  byOutboxId,
  handOffAfterCommit,
  handOffWhenWritten,
  type OutboxRow,
} from './outbox-publisher';
import { currentScope, traceHeaders } from './trace-context';

/**
 * Writes events to the service's outbox inside the caller's transaction: the only way an
 * event leaves a service (ARCHITECTURE rule 3). They are published after commit (`OutboxPublisher`,
 * the relay as backstop).
 */
export class OutboxWriter {
  /** Shared with the writers of the units of a group (`forUnit`): one flush, one statement. */
  private pending: PendingRow[] = [];
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
   * A writer for one unit of work of a transaction shared by several (a request group,
   * `transactionGroups`; a batch of inbound messages, `InboundProcessor.processBatch`), created in
   * that unit's scope: its events carry the unit's correlation id and its rows the unit's trace
   * headers, and they are queued here, so this writer's one `flush` writes them all.
   */
  forUnit(origin: EnvelopeOrigin = {}): OutboxWriter {
    const unit = new OutboxWriter(this.manager, origin);
    unit.pending = this.pending;
    return unit;
  }

  async flush(): Promise<void> {
    await insertOutboxRows(this.manager, this.pending.splice(0));
  }
}

/** An event queued by a writer, with the trace headers of the unit that queued it. */
interface PendingRow {
  envelope: EventEnvelope;
  headers: Record<string, string>;
}

/**
 * Inserts envelopes as outbox rows in one statement. Inside a transaction of a data source whose
 * process publishes after commit (`OutboxPublisher`), the same statement returns the new rows and
 * the rows of the same subjects still unpublished, and hands them over to be published when the
 * transaction commits; the relay leaves such rows alone for `AFTER_COMMIT_GRACE_MS`. Anywhere
 * else (no publisher, no transaction, raw SQL) the rows are the relay's at once.
 */
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

/** Four parameters a row (and the grace); PostgreSQL takes at most 65,535 in one statement. */
const MAX_ROWS_PER_INSERT = 16_000;

/**
 * Inserts outbox rows, each with its own headers, in one statement (one per 16,000 rows): the one
 * insert of every writer, a unit's, a group's or a batch's of inbound messages.
 */
async function insertOutboxRows(manager: EntityManager, outboxRows: readonly PendingRow[]): Promise<void> {
  if (outboxRows.length === 0) return;
  if (outboxRows.length > MAX_ROWS_PER_INSERT) {
    for (let at = 0; at < outboxRows.length; at += MAX_ROWS_PER_INSERT)
      await insertOutboxRows(manager, outboxRows.slice(at, at + MAX_ROWS_PER_INSERT));
    return;
  }
  const values: unknown[] = [];
  /** Each row as written, by event id: the after-commit publisher sends this text, not the row read back. */
  const written = new Map<string, Omit<OutboxRow, 'id'>>();
  const rows = outboxRows.map(({ envelope: e, headers }, i) => {
    const row = { subject: eventSubject(e.type, e.projectId), json: JSON.stringify(e) };
    written.set(e.eventId.toLowerCase(), { event_id: e.eventId, envelope: e, headers, ...row });
    values.push(e.eventId, row.subject, row.json, JSON.stringify(headers));
    const b = i * 4;
    return `($${b + 1}, $${b + 2}, $${b + 3}::jsonb, $${b + 4}::jsonb)`;
  });
  const queryRunner = manager.queryRunner;
  const publisher = queryRunner?.isTransactionActive ? afterCommitPublisherOf(manager.connection) : undefined;
  if (!queryRunner || !publisher) {
    // Nothing reads what it returns: in a transaction it goes ahead of the COMMIT, which fails if it does.
    await sendAheadAfterWrites(
      manager,
      `INSERT INTO outbox (event_id, subject, envelope, headers) VALUES ${rows.join(', ')}`,
      values,
    );
    return;
  }
  // One statement: the outer SELECT sees the table as it was before this INSERT (every row that
  // committed before it, and this transaction's earlier ones), not the rows the INSERT adds.
  values.push(AFTER_COMMIT_GRACE_MS);
  const grace = `$${values.length}`;
  // The rows this process published and has not marked yet are marked here too (no UPDATE of
  // their own); they are the transaction's from now on, given back if it rolls back.
  const marks = publisher.takeMarks();
  handOffAfterCommit(queryRunner, publisher, [], [], { ids: marks, marked: 0 });
  let marking = { cte: '', notMarked: '', rows: '' };
  if (marks.length > 0) {
    values.push(marks);
    const ids = `$${values.length}::bigint[]`;
    marking = {
      cte: `marked AS (UPDATE outbox SET published_at = now() WHERE id = ANY(${ids}) AND published_at IS NULL RETURNING id), `,
      notMarked: ` AND o.id <> ALL(${ids})`,
      rows: ` UNION ALL SELECT m.id::text, NULL::uuid, NULL::text, NULL::jsonb, NULL::jsonb, NULL::boolean FROM marked m`,
    };
  }
  // The transaction's deferred writes (`deferWrite`) go in the same statement, ahead of this one;
  // the statement goes ahead of the COMMIT behind it (its rows are needed only after commit). Its
  // own rows come back as ids only: their envelopes are the text it just sent (issue #29: an
  // event is serialised once, not read back, parsed and serialised again to be published). The
  // CTE still returns `subject` for the look-up below: without it, `subject` there would name the
  // outer row's column and match every unpublished row.
  const { reply } = await sendAheadAfterWrites<(OutboxRow & { own: boolean | null })[]>(
    manager,
    `WITH ${marking.cte}written AS (
       INSERT INTO outbox (event_id, subject, envelope, headers, relay_after)
       SELECT v.event_id::uuid, v.subject, v.envelope, v.headers,
              clock_timestamp() + ${grace}::int * interval '1 millisecond'
         FROM (VALUES ${rows.join(', ')}) AS v (event_id, subject, envelope, headers)
       RETURNING id, event_id, subject)
     SELECT id::text, event_id, NULL::text AS subject, NULL::jsonb AS envelope, NULL::jsonb AS headers,
            true AS own FROM written
     UNION ALL
     SELECT o.id::text, o.event_id, o.subject, o.envelope, o.headers, false AS own FROM outbox o
      WHERE o.published_at IS NULL AND o.subject IN (SELECT subject FROM written)${marking.notMarked}${marking.rows}`,
    values,
  );
  handOffWhenWritten(
    queryRunner,
    publisher,
    reply.then((returned) => {
      const own = returned.filter((r) => r.own === true).sort(byOutboxId);
      const before = returned.filter((r) => r.own === false);
      return {
        own: own.map((r) => ({ id: r.id, ...written.get(r.event_id.toLowerCase())! })),
        before: before.map(rowOf),
        marked: returned.length - own.length - before.length,
      };
    }),
  );
}

function rowOf(r: OutboxRow): OutboxRow {
  return { id: r.id, event_id: r.event_id, subject: r.subject, envelope: r.envelope, headers: r.headers };
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
