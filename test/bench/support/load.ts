import { now, sleep } from './stats';

/**
 * Open-loop load at a fixed rate: call `fire(i, intendedAt)` for i = 0..count-1 at
 * start + i / rate, without waiting for earlier calls. Latency is measured from `intendedAt`, so
 * a stalled event loop shows up in the figures instead of silently lowering the rate
 * (no coordinated omission). Resolves when every call has been fired, not when they finish.
 */
export async function openLoop(
  rate: number,
  count: number,
  fire: (i: number, intendedAt: number) => void,
): Promise<void> {
  const start = now();
  const interval = 1000 / rate;
  for (let i = 0; i < count; i++) {
    const due = start + i * interval;
    const wait = due - now();
    if (wait >= 1) await sleep(wait);
    fire(i, due);
  }
}

/** Runs `work(i)` for i = 0..count-1 with at most `concurrency` at once (closed loop). */
export async function closedLoop(
  count: number,
  concurrency: number,
  work: (i: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < count) await work(next++);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
}

/** Resolves when `done()` holds, checking every `intervalMs`; rejects after `timeoutMs`. */
export async function until(
  done: () => boolean,
  what: string,
  timeoutMs: number,
  intervalMs = 2,
): Promise<void> {
  const deadline = now() + timeoutMs;
  while (!done()) {
    if (now() > deadline) throw new Error(`bench: timed out after ${timeoutMs} ms waiting for ${what}`);
    if (intervalMs >= 1) await sleep(intervalMs);
    else await new Promise((resolve) => setImmediate(resolve));
  }
}
