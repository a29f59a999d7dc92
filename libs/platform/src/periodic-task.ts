/**
 * [openq] issue #31 the ONE timer lifecycle of a service's periodic work (the gates' idle sweep,
 * the pipeline's admission sweep, the notifier's clock ticker and delivery sender): run once at
 * start, then again `intervalMs` after each run ends, on an `unref()`'d timer (it never keeps the
 * process alive); never two runs at once; `kick()` runs now (or once more right after the run in
 * flight, however many kicks came meanwhile); a stop that waits for the run in flight.
 *
 * A provider starts it in `onApplicationBootstrap` and stops it in `beforeApplicationShutdown`
 * — not `onApplicationShutdown`: the infrastructure module closes the database in that hook, and
 * Nest runs it first. `start` again changes nothing: Nest calls `onApplicationBootstrap` once per
 * part of a hybrid app (HTTP, JetStream transport), and there must be one timer (issue #34).
 */
export class PeriodicTask {
  private timer: NodeJS.Timeout | null = null;
  private inFlight: Promise<void> | null = null;
  private started = false;
  private stopped = false;
  private again = false;

  /**
   * @param run one run; what it throws (or rejects with) goes to `onError`, and the next run
   *   comes as usual.
   */
  constructor(
    private readonly intervalMs: number,
    private readonly run: () => Promise<unknown>,
    private readonly onError: (error: unknown) => void,
  ) {}

  /** Between `start` and `stop`: a long run may check it between its steps, to end early on shutdown. */
  get running(): boolean {
    return this.started && !this.stopped;
  }

  /** Runs once now, then `intervalMs` after each run; once only, and never after `stop`. */
  start(): void {
    if (this.started || this.stopped) return;
    this.started = true;
    this.tick();
  }

  /** A run now, or right after the one in flight; nothing before `start` or after `stop`. */
  kick(): void {
    if (!this.running) return;
    if (this.inFlight) this.again = true;
    else this.tick();
  }

  /** Stops the timer and waits for the run in flight, if any. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.inFlight;
  }

  private tick(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
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
        if (!this.running) return;
        if (this.again) {
          this.again = false;
          this.tick();
          return;
        }
        this.timer = setTimeout(() => this.tick(), this.intervalMs);
        this.timer.unref();
      });
  }
}
