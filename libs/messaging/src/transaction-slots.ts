/**
 * How many consumer batches of one process may be in their transaction at once, shared by all its
 * durable consumers. A batch is gathered only once it holds a slot: while every slot is busy the
 * messages wait in their lanes, and the next batch takes all that gathered meanwhile — so batches
 * grow exactly when work queues, with no linger, and a lone message still goes at once (a slot is
 * free). Without the shared bound each consumer started up to its `concurrency` batches of one or
 * two messages, which then queued for a pooled connection with their batch already fixed.
 */
export class TransactionSlots {
  private busy = 0;
  /** Who waits for a slot, first come first served (a runner registers at most once). */
  private readonly waiting: (() => void)[] = [];

  constructor(readonly size: number) {
    if (!Number.isInteger(size) || size < 1) throw new Error(`transaction slots must be ≥ 1, got ${size}`);
  }

  get inUse(): number {
    return this.busy;
  }

  /** Takes a slot if one is free. */
  tryAcquire(): boolean {
    if (this.busy >= this.size) return false;
    this.busy++;
    return true;
  }

  /**
   * Gives a slot back and wakes every waiter, first come first; the first to find work takes the
   * slot and the others register again (a runner woken with nothing ready does not).
   */
  release(): void {
    if (this.busy === 0) throw new Error('transaction slot released twice');
    this.busy--;
    for (const wake of this.waiting.splice(0)) wake();
  }

  /** Calls `wake` once, at the next release (to try `tryAcquire` again). */
  whenFree(wake: () => void): void {
    this.waiting.push(wake);
  }

  /** Forgets a waiter (a runner that stops). */
  forget(wake: () => void): void {
    const at = this.waiting.indexOf(wake);
    if (at !== -1) this.waiting.splice(at, 1);
  }
}
