import { Logger } from '@nestjs/common';
import { headers as natsHeaders, type JetStreamClient } from 'nats';
import type {
  DataSource,
  EntitySubscriberInterface,
  QueryRunner,
  TransactionCommitEvent,
  TransactionRollbackEvent,
} from 'typeorm';
import { encodeJson, encodeText } from './codec';
import { messagingMetrics } from './metrics';

/** An outbox row as it is published: what the relay reads back, and what a commit hands over. */
export interface OutboxRow {
  id: string;
  event_id: string;
  subject: string;
  envelope: unknown;
  headers: Record<string, string>;
  /** The envelope as this process serialised it to write the row: published as is. */
  json?: string;
}

/** How long the relay leaves a row handed to an after-commit publisher alone (then it is a crash's). */
export const AFTER_COMMIT_GRACE_MS = 2000;

/** How long acked rows wait for an outbox insert to mark them before an UPDATE of their own. */
export const MARK_DELAY_MS = 100;

export interface OutboxPublisherOptions {
  /** The `service` label of the metrics. */
  service: string;
  /** PubAck wait per row. */
  timeoutMs?: number;
  /** How long acked rows wait for an outbox insert to mark them (default `MARK_DELAY_MS`). */
  markDelayMs?: number;
  /**
   * Fault injection for tests: runs after the commit, before anything is published; throwing
   * drops the rows, as a process that dies between COMMIT and publish would.
   */
  beforePublish?: (eventIds: string[]) => void;
}

/** What one transaction's `appendToOutbox` calls handed over, published once it commits. */
interface Handoff {
  publisher: OutboxPublisher;
  /** The transaction's rows, in the order written. */
  own: OutboxRow[];
  /** Rows of other transactions, of the same subjects, unpublished when the insert read them. */
  before: OutboxRow[];
  /** Acked rows this transaction's insert marked published (`takeMarks`), and how many it did mark. */
  marks: { ids: string[]; marked: number };
  /** Inserts sent ahead of COMMIT (`handOffWhenWritten`): their rows, once their replies are in. */
  pending: Promise<Written>[];
}

/** What one outbox insert returned: its own rows, the unpublished rows before them, the marks it made. */
export interface Written {
  own: OutboxRow[];
  before: OutboxRow[];
  marked: number;
}

const HANDOFF = 'openq:outboxHandoff';
const publishers = new WeakMap<DataSource, OutboxPublisher>();

/** The data source's after-commit publisher, when its process runs one (the transport's). */
export function afterCommitPublisherOf(dataSource: DataSource): OutboxPublisher | undefined {
  return publishers.get(dataSource);
}

/**
 * Called by `appendToOutbox` inside the transaction: the rows are published by `publisher` when
 * that transaction commits, and forgotten when it (or a savepoint of it) rolls back.
 */
export function handOffAfterCommit(
  queryRunner: QueryRunner,
  publisher: OutboxPublisher,
  own: OutboxRow[],
  before: OutboxRow[],
  marks?: { ids: string[]; marked: number },
): void {
  const handoff = handoffOf(queryRunner, publisher);
  handoff.own.push(...own);
  handoff.before.push(...before);
  if (marks) {
    handoff.marks.ids.push(...marks.ids);
    handoff.marks.marked += marks.marked;
  }
}

/**
 * `handOffAfterCommit` for an insert sent ahead of COMMIT (`sendAheadAfterWrites`): its rows are
 * handed over when its reply is in, which is before the COMMIT's. A COMMIT that succeeded means the
 * insert did; a failed insert fails the COMMIT, and the rollback drops the hand-off.
 */
export function handOffWhenWritten(
  queryRunner: QueryRunner,
  publisher: OutboxPublisher,
  written: Promise<Written>,
): void {
  handoffOf(queryRunner, publisher).pending.push(written);
  written.catch(() => undefined); // a failed insert fails the COMMIT, which is what reports it
}

function handoffOf(queryRunner: QueryRunner, publisher: OutboxPublisher): Handoff {
  const data = queryRunner.data as Record<string, Handoff | undefined>;
  return (data[HANDOFF] ??= { publisher, own: [], before: [], marks: { ids: [], marked: 0 }, pending: [] });
}

/**
 * TypeORM's transaction events are the one place "after commit, publish" happens: every unit of
 * work that writes outbox rows through `appendToOutbox` (`withOutbox`, the inbound transaction,
 * the decider transaction's callers, a plain `dataSource.transaction`) gets it without a call.
 */
class AfterCommit implements EntitySubscriberInterface {
  afterTransactionCommit(event: TransactionCommitEvent): Promise<void> | void {
    // A released savepoint broadcasts too: only the outermost COMMIT hands the rows over.
    if (event.queryRunner.isTransactionActive) return;
    const handoff = take(event.queryRunner);
    if (!handoff) return;
    if (handoff.pending.length === 0) return hand(handoff);
    // Already in (the replies came before the COMMIT's): no wait, only the promises' turn.
    return Promise.all(handoff.pending).then((written) => {
      for (const w of written) {
        handoff.own.push(...w.own);
        handoff.before.push(...w.before);
        handoff.marks.marked += w.marked;
      }
      hand(handoff);
    });
  }

  afterTransactionRollback(event: TransactionRollbackEvent): void {
    // Rolled back, even to a savepoint: which rows survived is unknown here, so none is handed
    // over; whatever committed is the relay's after the grace period. The marks it carried were
    // undone: those rows are marked again, by the next insert or on their own.
    const handoff = take(event.queryRunner);
    handoff?.publisher.markLater(handoff.marks.ids);
  }
}

function hand(handoff: Handoff): void {
  handoff.publisher.marked(handoff.marks.ids, handoff.marks.marked);
  handoff.publisher.committed(handoff.own, handoff.before);
}

function take(queryRunner: QueryRunner): Handoff | undefined {
  const data = queryRunner.data as Record<string, Handoff | undefined>;
  const handoff = data[HANDOFF];
  delete data[HANDOFF];
  return handoff;
}

/**
 * Publishes a process's committed outbox rows right after COMMIT, so an event does not wait for a
 * relay pass: in the order written, pipelined on the process's one NATS connection, each with
 * `Nats-Msg-Id = eventId`; the rows acked are then marked published by one UPDATE that coalesces
 * many commits. Rows of other transactions that the insert saw unpublished on the same subjects
 * are sent first (JetStream keeps the first copy), so a row never reaches the stream ahead of one
 * of its subject that committed before it was written (docs/decisions.md). What this never gets
 * to (a crash, a failed publish) the relay publishes after `AFTER_COMMIT_GRACE_MS`.
 */
export class OutboxPublisher {
  private readonly logger = new Logger(OutboxPublisher.name);
  /** Own rows sent (or being sent) and not yet marked, by id. */
  private readonly unmarked = new Map<string, OutboxRow>();
  private readonly acked: string[] = [];
  private readonly pending = new Set<Promise<void>>();
  private marking: Promise<void> | null = null;
  private markTimer: NodeJS.Timeout | null = null;
  private readonly subscriber = new AfterCommit();
  private attached = false;
  published = 0;

  constructor(
    private readonly dataSource: DataSource,
    private readonly js: JetStreamClient,
    private readonly options: OutboxPublisherOptions,
  ) {}

  /** From now on, transactions of the data source that write outbox rows hand them here. */
  attach(): void {
    if (this.attached) return;
    if (publishers.has(this.dataSource)) throw new Error('the data source already has an outbox publisher');
    publishers.set(this.dataSource, this);
    if (!this.dataSource.subscribers.some((s) => s instanceof AfterCommit))
      this.dataSource.subscribers.push(this.subscriber);
    this.attached = true;
  }

  /** Stops taking rows, then waits for what was taken to be published and marked. */
  async detach(): Promise<void> {
    if (this.attached && publishers.get(this.dataSource) === this) publishers.delete(this.dataSource);
    this.attached = false;
    await this.idle();
  }

  /** Resolves when every row taken so far has been published (or failed) and marked. */
  async idle(): Promise<void> {
    while (this.pending.size > 0 || this.marking || this.acked.length > 0) {
      await Promise.allSettled([...this.pending]);
      this.kickMark(true);
      await this.marking?.catch(() => undefined);
    }
  }

  /** After COMMIT (synchronously, in commit order): sends the rows; never throws. */
  committed(own: OutboxRow[], before: OutboxRow[]): void {
    if (own.length === 0) return;
    try {
      this.options.beforePublish?.(own.map((r) => r.event_id));
    } catch (error) {
      this.logger.warn(`after-commit publish skipped: ${String(error)}`);
      return;
    }
    const mine = new Set(own.map((r) => r.id));
    // Earlier rows of the same subjects that this process is not already sending: a copy goes first.
    const helps = before.filter((r) => !mine.has(r.id) && !this.unmarked.has(r.id));
    const rows = dedupe([...helps, ...own]).sort(byOutboxId);
    for (const row of own) this.unmarked.set(row.id, row);
    for (const row of rows) {
      const isOwn = mine.has(row.id);
      const sent: Promise<void> = this.send(row)
        .then(
          () => {
            if (isOwn) this.acked.push(row.id);
          },
          (error: unknown) => {
            // Left to the relay; a later row of the subject will send a copy of it first.
            if (isOwn) this.unmarked.delete(row.id);
            this.logger.warn(`after-commit publish of ${row.subject} failed: ${String(error)}`);
          },
        )
        .finally(() => {
          this.pending.delete(sent);
          this.kickMark();
        });
      this.pending.add(sent);
    }
  }

  private async send(row: OutboxRow): Promise<void> {
    const h = natsHeaders();
    for (const [k, v] of Object.entries(row.headers ?? {})) h.set(k, v);
    await this.js.publish(
      row.subject,
      row.json === undefined ? encodeJson(row.envelope) : encodeText(row.json),
      {
        msgID: row.event_id,
        headers: h,
        timeout: this.options.timeoutMs ?? 10_000,
      },
    );
  }

  /**
   * Acked rows not yet marked, for the outbox insert of a transaction of this data source to mark
   * in its own statement (issue #14: no UPDATE of its own); the transaction's end then reports
   * them (`marked`, or `markLater` on rollback).
   */
  takeMarks(): string[] {
    const ids = this.acked.splice(0);
    if (this.markTimer) clearTimeout(this.markTimer);
    this.markTimer = null;
    return ids;
  }

  /** Rows published and acked, waiting to be marked (by an outbox insert or an UPDATE). */
  get awaitingMark(): number {
    return this.acked.length;
  }

  /** After the COMMIT of a transaction that marked `ids`: `count` of them were still unmarked. */
  marked(ids: readonly string[], count: number): void {
    for (const id of ids) this.unmarked.delete(id);
    this.countMarked(count);
  }

  /** The transaction that took `ids` to mark rolled back: they wait for the next mark. */
  markLater(ids: readonly string[]): void {
    if (ids.length === 0) return;
    this.acked.push(...ids);
    this.kickMark();
  }

  /**
   * Acked rows are marked by the next outbox insert of this process if one comes within
   * `MARK_DELAY_MS` (the usual case under load), else by one UPDATE of their own, which marks
   * every row acked meanwhile; commits that land while it runs wait for the next.
   */
  private kickMark(now = false): void {
    if (this.marking || this.acked.length === 0) return;
    if (!now) {
      this.markTimer ??= setTimeout(() => {
        this.markTimer = null;
        this.kickMark(true);
      }, this.options.markDelayMs ?? MARK_DELAY_MS);
      return;
    }
    if (this.markTimer) clearTimeout(this.markTimer);
    this.markTimer = null;
    const ids = this.acked.splice(0);
    this.marking = this.mark(ids).finally(() => {
      this.marking = null;
      this.kickMark();
    });
  }

  private countMarked(count: number): void {
    if (count === 0) return;
    this.published += count;
    messagingMetrics.outboxPublished().inc({ service: this.options.service }, count);
    messagingMetrics.outboxPublishedAfterCommit().inc({ service: this.options.service }, count);
  }

  private async mark(ids: string[]): Promise<void> {
    try {
      // Rows the relay marked first (past the grace) are its: only the rows marked here count.
      const [, marked] = (await this.dataSource.query(
        `UPDATE outbox SET published_at = now() WHERE id = ANY($1::bigint[]) AND published_at IS NULL`,
        [ids],
      )) as [unknown, number];
      this.countMarked(marked);
    } catch (error) {
      // Not marked: the relay republishes them after the grace period, and JetStream drops the copies.
      this.logger.warn(`could not mark ${ids.length} published outbox rows: ${String(error)}`);
    } finally {
      for (const id of ids) this.unmarked.delete(id);
    }
  }
}

/** Outbox rows in the order they were written (ids are bigint, as text). */
export function byOutboxId(a: OutboxRow, b: OutboxRow): number {
  const x = BigInt(a.id);
  const y = BigInt(b.id);
  return x < y ? -1 : x > y ? 1 : 0;
}

function dedupe(rows: OutboxRow[]): OutboxRow[] {
  const seen = new Set<string>();
  return rows.filter((r) => !seen.has(r.id) && seen.add(r.id));
}
