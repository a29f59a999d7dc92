import { Logger } from '@nestjs/common';
import { headers as natsHeaders, type JetStreamClient } from 'nats';
import { Client } from 'pg';
import type { DataSource } from 'typeorm';
import { encodeJson } from './codec';
import { messagingMetrics } from './metrics';
import type { OutboxRow } from './outbox-publisher';

export interface OutboxRelayOptions {
  /** The service's schema: the NOTIFY channel is `openq_outbox_<schema>`. */
  schema: string;
  /** The `service` label of the relay's metrics (default: the schema). */
  service?: string;
  /** Connection string for the LISTEN connection (the data source's URL). */
  databaseUrl: string;
  batchSize?: number;
  /** Fallback poll when no notification arrives (also covers a lost LISTEN connection). */
  pollIntervalMs?: number;
  /** Published rows older than this are pruned. */
  retainPublishedMs?: number;
  /** Fault injection for tests: runs after the batch is published, before the rows are marked. */
  afterPublish?: (eventIds: string[]) => void | Promise<void>;
}

/**
 * The backstop of the outbox: publishes the rows no after-commit publisher took (raw SQL, a
 * process without one) or got to (a crash between COMMIT and publish, a failed publish: rows
 * handed to one are left alone for `AFTER_COMMIT_GRACE_MS`). Publishes to JetStream with
 * `Nats-Msg-Id = eventId`, waits for each PubAck, then marks the rows — all inside one transaction
 * that holds the rows `FOR UPDATE SKIP LOCKED` and the schema's relay lock, so one pass runs at a
 * time across replicas and rows go out in id order: a pass takes every unpublished row up to the
 * newest one due, so a due row never overtakes an earlier one of its subject still in someone's
 * grace period. A crash between publish and mark republishes on restart; JetStream's duplicate
 * window and the consumers' inbox absorb it. Wakes through LISTEN/NOTIFY for rows due at once
 * (the trigger fires only for them), with a poll as backstop.
 */
export class OutboxRelay {
  private readonly logger = new Logger(OutboxRelay.name);
  private listener: Client | null = null;
  private timer: NodeJS.Timeout | null = null;
  private running = false;
  private draining: Promise<void> | null = null;
  private again = false;
  private lastPrune = 0;
  /** Set by `flush`: the next passes take every unpublished row, in its grace period or not. */
  private forced = 0;
  published = 0;

  constructor(
    private readonly dataSource: DataSource,
    private readonly js: JetStreamClient,
    private readonly options: OutboxRelayOptions,
  ) {}

  async start(): Promise<void> {
    this.running = true;
    await this.listen();
    this.schedulePoll();
    this.kick();
  }

  async stop(): Promise<void> {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.draining?.catch(() => undefined);
    const listener = this.listener;
    this.listener = null;
    await listener?.end().catch(() => undefined);
  }

  /** Asks for a drain now; concurrent kicks coalesce into one more pass. */
  kick(): void {
    if (!this.running) return;
    if (this.draining) {
      this.again = true;
      return;
    }
    this.draining = this.drainLoop().finally(() => {
      this.draining = null;
      if (this.again && this.running) {
        this.again = false;
        this.kick();
      }
    });
  }

  /** Resolves when a drain that started after this call has finished (tests, shutdown). */
  async flush(): Promise<void> {
    this.forced++;
    try {
      while (this.running && (await this.backlog()) > 0) {
        this.kick();
        await this.draining;
      }
    } finally {
      this.forced--;
    }
  }

  async backlog(): Promise<number> {
    return outboxBacklog(this.dataSource);
  }

  private async drainLoop(): Promise<void> {
    const batchSize = this.options.batchSize ?? 256;
    try {
      while (this.running) {
        const count = await this.publishBatch(batchSize);
        if (count < batchSize) break;
      }
      await this.maybePrune();
    } catch (error) {
      // Never throw out of the relay: the rows stay unpublished and the next pass retries.
      this.logger.warn(`outbox relay pass failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  private async publishBatch(batchSize: number): Promise<number> {
    const force = this.forced > 0;
    const published = await this.dataSource.transaction(async (manager): Promise<OutboxRow[]> => {
      // One pass at a time per schema (replicas included); a replica that finds it taken leaves the work to it.
      const [lock]: { taken: boolean }[] = await manager.query(
        `SELECT pg_try_advisory_xact_lock(hashtext('openq-outbox-relay:' || current_schema())) AS taken`,
      );
      if (!lock!.taken) return [];
      const rows: OutboxRow[] = await manager.query(
        `SELECT id, event_id, subject, envelope, headers FROM outbox
          WHERE published_at IS NULL
            AND ($2 OR id <= (SELECT max(id) FROM outbox WHERE published_at IS NULL AND relay_after <= now()))
          ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED`,
        [batchSize, force],
      );
      if (rows.length === 0) return [];
      // One connection writes in order, so pipelining the publishes keeps the stream order.
      await Promise.all(
        rows.map((row) => {
          const h = natsHeaders();
          for (const [k, v] of Object.entries(row.headers ?? {})) h.set(k, v);
          return this.js.publish(row.subject, encodeJson(row.envelope), {
            msgID: row.event_id,
            headers: h,
            timeout: 10_000,
          });
        }),
      );
      await this.options.afterPublish?.(rows.map((r) => r.event_id));
      await manager.query(`UPDATE outbox SET published_at = now() WHERE id = ANY($1::bigint[])`, [
        rows.map((r) => r.id),
      ]);
      return rows;
    });
    if (published.length > 0) {
      this.published += published.length;
      const service = this.options.service ?? this.options.schema;
      messagingMetrics.outboxPublished().inc({ service }, published.length);
      messagingMetrics.outboxRelayed().inc({ service }, published.length);
    }
    return published.length;
  }

  private async maybePrune(): Promise<void> {
    const retain = this.options.retainPublishedMs ?? 3600_000;
    if (Date.now() - this.lastPrune < Math.min(retain, 60_000)) return;
    this.lastPrune = Date.now();
    await this.dataSource.query(
      `DELETE FROM outbox WHERE published_at IS NOT NULL AND published_at < now() - ($1::bigint * interval '1 millisecond')`,
      [retain],
    );
  }

  private async listen(): Promise<void> {
    const client = new Client({ connectionString: this.options.databaseUrl });
    client.on('error', () => {
      // The LISTEN connection dropped (database restart): reconnect on the next poll.
      if (this.listener === client) this.listener = null;
    });
    client.on('notification', () => this.kick());
    try {
      await client.connect();
      await client.query(`LISTEN openq_outbox_${this.options.schema}`);
      if (!this.running) {
        await client.end();
        return;
      }
      this.listener = client;
    } catch (error) {
      await client.end().catch(() => undefined);
      this.logger.warn(
        `outbox LISTEN unavailable, polling only: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }

  private schedulePoll(): void {
    if (!this.running) return;
    this.timer = setTimeout(() => {
      void (async () => {
        if (!this.listener && this.running) await this.listen();
        if (!this.running) return;
        this.kick();
        this.schedulePoll();
      })();
    }, this.options.pollIntervalMs ?? 1000);
  }
}

/** Outbox rows not yet published (the partial index `outbox_unpublished` keeps this cheap). */
export async function outboxBacklog(dataSource: Pick<DataSource, 'query'>): Promise<number> {
  const [row] = await dataSource.query(`SELECT count(*)::int AS n FROM outbox WHERE published_at IS NULL`);
  return (row as { n: number }).n;
}
