import * as hdr from 'hdr-histogram-js';

/** One figure over the runs of a bench: every run's value, its median and its spread. */
export interface Figure {
  unit: string;
  runs: number[];
  median: number;
  min: number;
  max: number;
  q1: number;
  q3: number;
}

/** Linear-interpolated quantile of sorted values (q in 0..1). */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (pos - lo);
}

export function figure(unit: string, runs: readonly number[]): Figure {
  const sorted = [...runs].sort((a, b) => a - b);
  return {
    unit,
    runs: [...runs],
    median: quantile(sorted, 0.5),
    min: sorted[0] ?? Number.NaN,
    max: sorted[sorted.length - 1] ?? Number.NaN,
    q1: quantile(sorted, 0.25),
    q3: quantile(sorted, 0.75),
  };
}

/**
 * Latencies of one run in an HDR histogram (microsecond resolution, 3 significant digits), read
 * back in milliseconds.
 */
export class Latency {
  private readonly h = hdr.build({
    lowestDiscernibleValue: 1,
    highestTrackableValue: 600_000_000,
    numberOfSignificantValueDigits: 3,
  });

  /** Records a duration in milliseconds. */
  record(ms: number): void {
    this.h.recordValue(Math.max(1, Math.round(ms * 1000)));
  }

  get count(): number {
    return this.h.totalCount;
  }

  /** The value at percentile p (0..100), in milliseconds. */
  p(percentile: number): number {
    return this.h.getValueAtPercentile(percentile) / 1000;
  }

  get maxMs(): number {
    return this.h.maxValue / 1000;
  }
}

/** Milliseconds since an arbitrary origin, sub-millisecond. */
export const now = (): number => performance.now();

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
