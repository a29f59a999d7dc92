import { Client } from 'pg';

interface StatementStats {
  count: number;
  ms: number;
}

/**
 * Counts the SQL statements this process sends (every pg client: openq's pools, the relay's
 * LISTEN connection, the floor, the peer), by statement text, with the time each took from
 * send to result. Installed once; `window()` reads what happened between two points.
 */
class SqlTrace {
  private readonly stats = new Map<string, StatementStats>();
  private installed = false;
  total = 0;

  install(): void {
    if (this.installed) return;
    this.installed = true;
    const original = Client.prototype.query as (...args: unknown[]) => unknown;
    const record = (text: string, t0: number) => {
      const key = text.replace(/\s+/g, ' ').trim().slice(0, 110);
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
