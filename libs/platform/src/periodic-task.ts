/**
 * [openq] issue #31 the ONE timer lifecycle of a service's periodic work (the gates' idle sweep,
 * the pipeline's admission sweep): run once at start, then every `intervalMs` on an `unref()`'d
 * timer (it never keeps the process alive), never two runs at once (a tick while one is in
 * flight is skipped), and a stop that waits for the run in flight.
 *
 * A provider starts it in `onApplicationBootstrap` and stops it in `beforeApplicationShutdown`
 * — not `onApplicationShutdown`: the infrastructure module closes the database in that hook, and
 * Nest runs it first. `start` again changes nothing: Nest calls `onApplicationBootstrap` once per
 * part of a hybrid app (HTTP, JetStream transport), and there must be one timer (issue #34).
 */
export class PeriodicTask {
  private timer: NodeJS.Timeout | null = null;
  private inFlight: Promise<void> | null = null;
  private stopped = false;

  /**
   * @param run one run; what it throws (or rejects with) goes to `onError`, and the next tick
   *   runs again.
   */
  constructor(
    private readonly intervalMs: number,
    private readonly run: () => Promise<unknown>,
    private readonly onError: (error: unknown) => void,
  ) {}

  /** Between `start` and `stop`: a long run may check it between its steps, to end early on shutdown. */
  get running(): boolean {
    return this.timer !== null;
  }

  /** Runs once now, then every `intervalMs`; once only, and never after `stop`. */
  start(): void {
    if (this.timer || this.stopped) return;
    this.timer = setInterval(() => this.tick(), this.intervalMs);
    this.timer.unref();
    this.tick();
  }

  /** Stops the timer and waits for the run in flight, if any. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.inFlight;
  }

  private tick(): void {
    if (this.stopped || this.inFlight) return;
    let result: Promise<unknown>;
    try {
      result = Promise.resolve(this.run());
    } catch (error) {
      result = Promise.reject(error);
    }
    // Settled callbacks run later, so `inFlight` is set before it can be cleared.
    this.inFlight = result
      .then(
        () => undefined,
        (error: unknown) => this.onError(error),
      )
      .finally(() => {
        this.inFlight = null;
      });
  }
}
