import { Client } from 'pg';

interface StatementStats {
  count: number;
  ms: number;
}

/** Transactions the server ran, as counted from the statements sent (see `SqlTrace.transactions`). */
export interface TransactionCount {
  /** `START TRANSACTION` / `BEGIN` … `COMMIT` / `ROLLBACK` blocks. */
  explicit: number;
  /** Statements sent outside a block: PostgreSQL runs each as a transaction of its own. */
  single: number;
}

const BEGIN = /^\s*(START\s+TRANSACTION|BEGIN)\b/i;
const END = /^\s*(COMMIT|ROLLBACK|END|ABORT)\s*(;|$|\bWORK\b|\bTRANSACTION\b|\bAND\b)/i;

/**
 * Counts the SQL statements this process sends (every pg client: openq's pools, the relay's
 * LISTEN connection, the floor, the peer), by statement text, with the time each took from
 * send to result, and the transactions they make: a client is inside a block from `START
 * TRANSACTION` (TypeORM) or `BEGIN` to `COMMIT` or `ROLLBACK` (not `ROLLBACK TO SAVEPOINT`), and
 * any other statement it sends outside one is a transaction of its own. A pg client runs its
 * queries in the order they were sent, so following them at send time follows the server.
 * Installed once; `snapshot()` / `since()` read what happened between two points.
 */
class SqlTrace {
  private readonly stats = new Map<string, StatementStats>();
  private readonly inBlock = new WeakSet<Client>();
  private installed = false;
  total = 0;
  readonly transactions: TransactionCount = { explicit: 0, single: 0 };

  /** Follows `client`'s transaction state through one statement sent. */
  private follow(client: Client, text: string): void {
    if (BEGIN.test(text)) {
      if (!this.inBlock.has(client)) this.transactions.explicit++;
      this.inBlock.add(client);
    } else if (END.test(text)) {
      this.inBlock.delete(client);
    } else if (!this.inBlock.has(client)) {
      this.transactions.single++;
    }
  }

  install(): void {
    if (this.installed) return;
    this.installed = true;
    const original = Client.prototype.query as (...args: unknown[]) => unknown;
    const follow = (client: Client, text: string) => this.follow(client, text);
    // A statement's key, once per text: the bench's own cost stays out of the CPU it measures.
    const keys = new Map<string, string>();
    const keyOf = (text: string): string => {
      let key = keys.get(text);
      if (key === undefined) {
        key = text.replace(/\s+/g, ' ').trim().slice(0, 110);
        if (keys.size < 10_000) keys.set(text, key);
      }
      return key;
    };
    const record = (text: string, t0: number) => {
      const key = keyOf(text);
      const s = this.stats.get(key) ?? { count: 0, ms: 0 };
      s.count++;
      s.ms += performance.now() - t0;
      this.stats.set(key, s);
      this.total++;
    };
    (Client.prototype as unknown as { query: (...args: unknown[]) => unknown }).query = function (
      this: Client,
      ...args: unknown[]
    ) {
      const first = args[0];
      const text = typeof first === 'string' ? first : (first as { text?: string } | null)?.text;
      if (typeof text !== 'string') return original.apply(this, args);
      follow(this, text);
      const t0 = performance.now();
      const last = args[args.length - 1];
      if (typeof last === 'function') {
        args[args.length - 1] = (...cb: unknown[]) => {
          record(text, t0);
          return (last as (...a: unknown[]) => unknown)(...cb);
        };
        return original.apply(this, args);
      }
      const out = original.apply(this, args);
      if (out && typeof (out as Promise<unknown>).then === 'function') {
        return (out as Promise<unknown>).finally(() => record(text, t0));
      }
      return out;
    };
  }

  snapshot(): Map<string, StatementStats> {
    return new Map([...this.stats].map(([k, v]) => [k, { ...v }]));
  }

  /** The transaction counters now, to subtract later. */
  transactionsNow(): TransactionCount {
    return { ...this.transactions };
  }

  /** Transactions since `before` (from `transactionsNow()`). */
  transactionsSince(before: TransactionCount): TransactionCount {
    return {
      explicit: this.transactions.explicit - before.explicit,
      single: this.transactions.single - before.single,
    };
  }

  /** Statements since `before` (a snapshot), most frequent first. */
  since(before: Map<string, StatementStats>): { text: string; count: number; ms: number }[] {
    return [...this.stats]
      .map(([text, s]) => ({
        text,
        count: s.count - (before.get(text)?.count ?? 0),
        ms: s.ms - (before.get(text)?.ms ?? 0),
      }))
      .filter((s) => s.count > 0)
      .sort((a, b) => b.count - a.count);
  }
}

export const sqlTrace = new SqlTrace();
