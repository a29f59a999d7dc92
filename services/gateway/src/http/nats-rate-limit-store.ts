import { createHash } from 'node:crypto';
import type { KV, NatsConnection } from 'nats';

/** The JetStream key-value bucket the replicas share their counts in. */
export const RATE_LIMIT_BUCKET = 'openq_gateway_rate_limits';

type Callback = (error: Error | null, result?: { current: number; ttl: number }) => void;

/**
 * Fixed-window counters in a JetStream key-value bucket, so every gateway replica counts against
 * the same limit. A key is `<hash of the caller key>.<window number>`; an increment is a
 * compare-and-set on the entry's revision, retried when another replica won the race. Entries
 * expire with the bucket's TTL (two windows), so nothing has to be cleaned up.
 */
export class NatsCounters {
  private kv: Promise<KV> | null = null;

  constructor(
    private readonly nc: NatsConnection,
    private readonly windowMs: number,
  ) {}

  private bucket(): Promise<KV> {
    this.kv ??= this.nc
      .jetstream()
      .views.kv(RATE_LIMIT_BUCKET, { ttl: this.windowMs * 2, history: 1 })
      .catch((error: unknown) => {
        this.kv = null;
        throw error;
      });
    return this.kv;
  }

  /** Counts one more in the caller's current window; the count and the ms left in the window. */
  async increment(key: string, windowMs: number): Promise<{ current: number; ttl: number }> {
    const kv = await this.bucket();
    const { entry, ttl } = this.slot(key, windowMs);
    for (let attempt = 0; attempt < 20; attempt++) {
      const found = await kv.get(entry);
      try {
        if (!found || found.operation !== 'PUT') {
          await kv.create(entry, encode(1));
          return { current: 1, ttl };
        }
        const current = decode(found.value) + 1;
        await kv.update(entry, encode(current), found.revision);
        return { current, ttl };
      } catch (error) {
        if (!isConflict(error)) throw error;
        // another replica counted first: read again and retry
      }
    }
    throw new Error('rate-limit counter under too much contention');
  }

  /** The count so far in the caller's current window, counting nothing. */
  async read(key: string, windowMs: number): Promise<{ current: number; ttl: number }> {
    const kv = await this.bucket();
    const { entry, ttl } = this.slot(key, windowMs);
    const found = await kv.get(entry);
    return { current: found && found.operation === 'PUT' ? decode(found.value) : 0, ttl };
  }

  private slot(key: string, windowMs: number): { entry: string; ttl: number } {
    const now = Date.now();
    const window = Math.floor(now / windowMs);
    const hash = createHash('sha256').update(key).digest('hex').slice(0, 40);
    return { entry: `${hash}.${window}`, ttl: (window + 1) * windowMs - now };
  }
}

/**
 * The store constructor `@fastify/rate-limit` takes (`store` option), backed by `counters`. Each
 * limiter gets its own child; their keys never overlap (each limiter's key names its kind).
 */
export function natsRateLimitStore(counters: NatsCounters): new () => unknown {
  return class NatsRateLimitStore {
    incr(key: string, callback: Callback, timeWindow: number): void {
      counters.increment(key, timeWindow).then(
        (result) => callback(null, result),
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
      );
    }

    read(key: string, callback: Callback, timeWindow: number): void {
      counters.read(key, timeWindow).then(
        (result) => callback(null, result),
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
      );
    }

    child(): NatsRateLimitStore {
      return new NatsRateLimitStore();
    }
  };
}

const encode = (n: number): Uint8Array => new TextEncoder().encode(String(n));
const decode = (bytes: Uint8Array): number => Number(new TextDecoder().decode(bytes)) || 0;

/** A create on an existing key, or an update on a stale revision. */
function isConflict(error: unknown): boolean {
  const code = (error as { api_error?: { err_code?: number } } | null)?.api_error?.err_code;
  return code === 10071 || /wrong last sequence/i.test(String((error as Error)?.message));
}
