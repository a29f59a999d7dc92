export interface WaitOptions {
  timeoutMs?: number;
  intervalMs?: number;
  /** Named in the error when the condition never holds. */
  what?: string;
}

/**
 * How long a wait gives the code to make its condition true by default. A condition that holds is
 * seen at the next poll, so a longer bound slows no passing test; it only keeps a test green while
 * CI's busy 2-core machine runs two suites at once (a 10 s bound failed waits that take 11 s there).
 */
export const DEFAULT_WAIT_MS = 30_000;

/** Polls `condition` until it returns true (or a non-false value, which is returned). */
export async function waitFor<T>(
  condition: () => T | Promise<T>,
  options: WaitOptions = {},
): Promise<Exclude<T, false | null | undefined>> {
  const deadline = Date.now() + (options.timeoutMs ?? DEFAULT_WAIT_MS);
  let last: unknown;
  for (;;) {
    try {
      const value = await condition();
      if (value !== false && value !== null && value !== undefined)
        return value as Exclude<T, false | null | undefined>;
      last = value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) {
      throw new Error(
        `timed out waiting for ${options.what ?? 'condition'}; last: ${last instanceof Error ? last.message : JSON.stringify(last)}`,
      );
    }
    await new Promise((r) => setTimeout(r, options.intervalMs ?? 25));
  }
}
