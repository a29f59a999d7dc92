import { Logger } from '@nestjs/common';
import { headers as natsHeaders, type JetStreamClient } from 'nats';
import { Client } from 'pg';
import type { DataSource } from 'typeorm';
import { encodeJson } from './codec';
import { messagingMetrics } from './metrics';

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

interface OutboxRow {
  id: string;
  event_id: string;
  subject: string;
  envelope: unknown;
  headers: Record<string, string>;
}

/**
 * Publishes outbox rows to JetStream with `Nats-Msg-Id = eventId`, waits for each PubAck, then
 * marks the rows — all inside one transaction that holds the rows `FOR UPDATE SKIP LOCKED`, so
 * any number of relay replicas share the work without publishing a row twice at once. A crash
 * between publish and mark republishes on restart; JetStream's duplicate window and the
 * consumers' inbox absorb it. Wakes on commit through LISTEN/NOTIFY, with a slow poll as backstop.
 */
export class OutboxRelay {
  private readonly logger = new Logger(OutboxRelay.name);
  private listener: Client | null = null;
  private timer: NodeJS.Timeout | null = null;
  private running = false;
  private draining: Promise<void> | null = null;
  private again = false;
  private lastPrune = 0;
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
    while (this.running && (await this.backlog()) > 0) {
      this.kick();
      await this.draining;
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
    const published = await this.dataSource.transaction(async (manager): Promise<OutboxRow[]> => {
      const rows: OutboxRow[] = await manager.query(
        `SELECT id, event_id, subject, envelope, headers FROM outbox
          WHERE published_at IS NULL ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED`,
        [batchSize],
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
      messagingMetrics
        .outboxPublished()
        .inc({ service: this.options.service ?? this.options.schema }, published.length);
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
