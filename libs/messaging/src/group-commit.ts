import { AsyncResource } from 'node:async_hooks';
import type { EntityManager } from 'typeorm';
import { isRetryLater } from './retry-later';
import { messagingMetrics } from './metrics';
import { OutboxWriter, withOutbox } from './outbox';

/**
 * More units are waiting for a group transaction than the committer keeps: the request is not
 * taken (nothing was written) and the caller is told to come back (503 `sobrecarregado` with
 * `Retry-After`, SPEC §11.6) instead of waiting into a timeout.
 */
export class OverloadedError extends Error {
  override readonly name = 'OverloadedError';
  constructor(
    what: string,
    /** Seconds after which a retry is likely to be taken. */
    readonly retryAfterSeconds: number,
  ) {
    super(`${what}: too many requests are waiting; try again in ${retryAfterSeconds} s`);
  }
}

export function isOverloaded(error: unknown): error is OverloadedError {
  return error instanceof OverloadedError;
}

export interface GroupCommitOptions {
  /** What the groups do, for messages ("declarations"). */
  name: string;
  /** Most units in one group. */
  maxGroupSize?: number;
  /** Group transactions running at once (each holds one pooled connection). */
  maxConcurrentGroups?: number;
  /** Units waiting for a group; one more is refused with `OverloadedError`. */
  maxQueued?: number;
  /** What a refused caller is told to wait (`Retry-After`). */
  retryAfterSeconds?: number;
}

/** One caller's unit inside a group: its input, and a way to run code in the caller's async context. */
export interface GroupUnit<I> {
  readonly input: I;
  /** Runs `fn` in the context the unit was submitted from (its correlation id, trace context). */
  within<T>(fn: () => T): T;
}

/** What the committer has done so far (tests, the bench, metrics). */
export interface GroupCommitStats {
  /** Group runs, including the groups of one of a split. */
  groups: number;
  units: number;
  largestGroup: number;
  /** Groups that failed for something other than a refusal or an outage and were retried unit by unit. */
  splits: number;
  /** Units refused because the queue was full. */
  overloaded: number;
}

interface Waiting<I, O> extends GroupUnit<I> {
  resolve(value: O): void;
  reject(error: unknown): void;
}

const DEFAULTS = { maxGroupSize: 256, maxConcurrentGroups: 2, maxQueued: 8192, retryAfterSeconds: 1 };

/**
 * Group commit at an edge (docs/decisions.md, "group commit"): units of work that arrive while a
 * group is running queue up; when a group ends, the next one takes everything queued (up to
 * `maxGroupSize`) and `run` does all of it at once, in one transaction. Nothing ever waits for
 * company: with a slot free, a unit starts at once, alone. At most `maxConcurrentGroups` groups
 * run at a time, so a burst waits here, in memory, instead of on the connection pool; past
 * `maxQueued` waiting units a caller gets `OverloadedError`.
 *
 * `run` answers each unit (a refusal is an answer, a value). When it throws, a transient failure
 * (`isRetryLater`: the database is unreachable, a deadlock) fails every unit of the group, as it
 * would have failed each alone; anything else may be one bad unit, so the group is split and each
 * unit runs again as a group of one: one bad request cannot fail the others.
 */
export class GroupCommitter<I, O> {
  private readonly queue: Waiting<I, O>[] = [];
  private running = 0;
  private readonly options: Required<GroupCommitOptions>;
  private readonly idle = new Set<() => void>();
  /** Groups run in the context the committer was made in, not in one caller's (its units use `within`). */
  private readonly home = new AsyncResource('openq.group-commit');
  readonly stats: GroupCommitStats = { groups: 0, units: 0, largestGroup: 0, splits: 0, overloaded: 0 };

  constructor(
    private readonly run: (units: readonly GroupUnit<I>[]) => Promise<readonly O[]>,
    options: GroupCommitOptions,
  ) {
    this.options = { ...DEFAULTS, ...options };
  }

  /** Queues one unit; resolves with its own answer once its group committed. */
  submit(input: I): Promise<O> {
    const mustWait = this.running >= this.options.maxConcurrentGroups;
    if (mustWait && this.queue.length >= this.options.maxQueued) {
      this.stats.overloaded++;
      messagingMetrics.groupOutcomes().inc({ group: this.options.name, event: 'overloaded' });
      return Promise.reject(new OverloadedError(this.options.name, this.options.retryAfterSeconds));
    }
    return new Promise<O>((resolve, reject) => {
      const scope = new AsyncResource('openq.group-commit.unit');
      this.queue.push({
        input,
        within: (fn) => scope.runInAsyncScope(fn),
        resolve,
        reject,
      });
      this.pump();
    });
  }

  /** Units waiting for a group (not counting those running). */
  get queued(): number {
    return this.queue.length;
  }

  /** Resolves when no group is running and nothing waits. */
  whenIdle(): Promise<void> {
    if (this.running === 0 && this.queue.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.idle.add(resolve));
  }

  private pump(): void {
    while (this.running < this.options.maxConcurrentGroups && this.queue.length > 0) {
      const group = this.queue.splice(0, this.options.maxGroupSize);
      this.running++;
      void this.home
        .runInAsyncScope(() => this.commit(group))
        .finally(() => {
          this.running--;
          this.pump();
          if (this.running === 0 && this.queue.length === 0) {
            for (const done of [...this.idle]) done();
            this.idle.clear();
          }
        });
    }
  }

  private async commit(group: Waiting<I, O>[]): Promise<void> {
    try {
      const answers = await this.attempt(group);
      group.forEach((unit, i) => unit.resolve(answers[i]!));
    } catch (error) {
      if (group.length === 1 || isRetryLater(error)) {
        for (const unit of group) unit.reject(error);
        return;
      }
      this.stats.splits++;
      messagingMetrics.groupOutcomes().inc({ group: this.options.name, event: 'split' });
      for (const unit of group) {
        try {
          const [answer] = await this.attempt([unit]);
          unit.resolve(answer!);
        } catch (alone) {
          unit.reject(alone);
        }
      }
    }
  }

  private async attempt(group: Waiting<I, O>[]): Promise<readonly O[]> {
    this.stats.groups++;
    this.stats.units += group.length;
    this.stats.largestGroup = Math.max(this.stats.largestGroup, group.length);
    messagingMetrics.groupSize().observe({ group: this.options.name }, group.length);
    const answers = await this.run(group);
    if (answers.length !== group.length)
      throw new Error(`${this.options.name}: ${answers.length} answers for a group of ${group.length}`);
    return answers;
  }
}

/** A unit inside a group transaction: its input and its own outbox (its correlation and trace). */
export interface TransactionUnit<I> {
  input: I;
  outbox: OutboxWriter;
}

/**
 * A `GroupCommitter` whose groups are database transactions (`withOutbox`): `work` gets the
 * group's units, each with an outbox writer of its own that carries the unit's correlation id and
 * trace headers, and all their rows go out in the group's one outbox insert before commit.
 */
export function transactionGroups<I, O>(
  dataSource: Parameters<typeof withOutbox>[0],
  work: (manager: EntityManager, units: readonly TransactionUnit<I>[]) => Promise<readonly O[]>,
  options: GroupCommitOptions,
): GroupCommitter<I, O> {
  return new GroupCommitter<I, O>(
    (units) =>
      withOutbox(dataSource, {}, (manager, outbox) =>
        work(
          manager,
          units.map((u) => ({ input: u.input, outbox: u.within(() => outbox.forUnit()) })),
        ),
      ),
    options,
  );
}
