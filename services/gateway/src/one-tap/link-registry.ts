import type { KV, NatsConnection } from 'nats';

/** The JetStream key-value bucket the gateway replicas share one-tap link uses in. */
export const LINK_BUCKET = 'openq_gateway_one_tap_links';

/** A claimed link: `pending` while its answer is on the way, `used` once it was recorded. */
export type LinkUse = 'pending' | 'used';

/**
 * [openq] issue #17 single use of a one-tap link across gateway replicas: `claim` is an atomic
 * `create(linkId)` in a JetStream KV bucket (the same server-side compare-and-set the shared rate
 * limits use), so of two POSTs of one link, on any replicas, exactly one claims it. An answer that
 * fails `release`s the claim so the person can try again; one that succeeds marks it `used`.
 * Entries expire with the bucket's TTL, set past the longest a link can live.
 */
export class LinkRegistry {
  private kv: Promise<KV> | null = null;

  constructor(
    private readonly nc: NatsConnection,
    private readonly ttlMs: number,
  ) {}

  private bucket(): Promise<KV> {
    this.kv ??= this.nc
      .jetstream()
      .views.kv(LINK_BUCKET, { ttl: this.ttlMs, history: 1 })
      .catch((error: unknown) => {
        this.kv = null;
        throw error;
      });
    return this.kv;
  }

  /** True when this call claimed the link; false when it was claimed (or used) before. */
  async claim(linkId: string): Promise<boolean> {
    const kv = await this.bucket();
    try {
      await kv.create(linkId, encode('pending'));
      return true;
    } catch (error) {
      if (isConflict(error)) return false;
      throw error;
    }
  }

  async markUsed(linkId: string): Promise<void> {
    await (await this.bucket()).put(linkId, encode('used'));
  }

  /** Gives the link back (its answer failed): the next POST may claim it again. */
  async release(linkId: string): Promise<void> {
    // A purge, not a delete: `create` succeeds again on a purged key.
    await (await this.bucket()).purge(linkId);
  }

  /** What became of the link so far (`null`: never claimed, or released). */
  async state(linkId: string): Promise<LinkUse | null> {
    const found = await (await this.bucket()).get(linkId);
    if (!found || found.operation !== 'PUT') return null;
    const value = new TextDecoder().decode(found.value);
    return value === 'used' || value === 'pending' ? value : null;
  }
}

const encode = (value: string): Uint8Array => new TextEncoder().encode(value);

/** A create on an existing key. */
function isConflict(error: unknown): boolean {
  const code = (error as { api_error?: { err_code?: number } } | null)?.api_error?.err_code;
  return code === 10071 || /wrong last sequence|key exists/i.test(String((error as Error)?.message));
}
