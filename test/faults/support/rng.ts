/**
 * A seeded PRNG (mulberry32), so that every random moment of a fault test can be replayed:
 * each test prints its seed; `FAULTS_SEED=<seed> npx jest test/faults/<file>` runs it again.
 */
export interface Rng {
  readonly seed: number;
  /** [0, 1) */
  next(): number;
  int(min: number, maxInclusive: number): number;
  pick<T>(items: readonly T[]): T;
  chance(p: number): boolean;
  shuffle<T>(items: T[]): T[];
}

export function seedFromEnv(): number {
  const given = process.env.FAULTS_SEED;
  if (given !== undefined && /^\d+$/.test(given)) return Number(given) >>> 0;
  return (Date.now() ^ (process.pid << 16)) >>> 0;
}

export function rng(seed: number = seedFromEnv()): Rng {
  let s = seed >>> 0;
  const next = (): number => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  return {
    seed,
    next,
    int,
    pick: (items) => items[int(0, items.length - 1)]!,
    chance: (p) => next() < p,
    shuffle: (items) => {
      for (let i = items.length - 1; i > 0; i--) {
        const j = int(0, i);
        [items[i], items[j]] = [items[j]!, items[i]!];
      }
      return items;
    },
  };
}
