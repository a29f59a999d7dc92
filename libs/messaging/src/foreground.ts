/**
 * The work of this process that an agent or a person waits for (issue #29): a consumer batch or a
 * request of a foreground service (questions, gates). A background service's consumers (context's
 * read models, the notifier's notices and engine fan-out) yield to it: when several services share
 * one process and one event loop (laptop mode, `npm start`), their batches would otherwise
 * interleave with a resume's statements and stretch it. In a process of its own a background
 * service finds nothing to yield to.
 */
export class ForegroundWork {
  private running = 0;
  private consumers = 0;
  private readonly waiting = new Set<() => void>();

  /** A foreground consumer runs in this process (until `unregister`). */
  register(): void {
    this.consumers++;
  }

  unregister(): void {
    this.consumers = Math.max(0, this.consumers - 1);
  }

  /** Whether the process runs a foreground consumer: a background one alone yields to nothing. */
  get present(): boolean {
    return this.consumers > 0;
  }

  /** Foreground work started: background batches wait while any runs. */
  enter(): void {
    this.running++;
  }

  /** Foreground work ended; once none runs, the waiting background batches go. */
  leave(): void {
    this.running = Math.max(0, this.running - 1);
    if (this.running > 0 || this.waiting.size === 0) return;
    const woken = [...this.waiting];
    this.waiting.clear();
    for (const wake of woken) wake();
  }

  get busy(): boolean {
    return this.running > 0;
  }

  /** Calls `wake` once no foreground work runs (at once when none does). */
  whenIdle(wake: () => void): void {
    if (this.running === 0) wake();
    else this.waiting.add(wake);
  }

  forget(wake: () => void): void {
    this.waiting.delete(wake);
  }
}

/** One per process: every service the process runs shares it. */
export const processForeground = new ForegroundWork();

/** Runs `work` as foreground work of the process. */
export async function asForeground<T>(foreground: ForegroundWork, work: () => Promise<T>): Promise<T> {
  foreground.enter();
  try {
    return await work();
  } finally {
    foreground.leave();
  }
}
