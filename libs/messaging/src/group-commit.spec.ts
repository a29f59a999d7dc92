import { AsyncLocalStorage } from 'node:async_hooks';
import { GroupCommitter, OverloadedError, type GroupUnit } from './group-commit';

/** A run whose groups end when the test says so: each call is recorded with its inputs. */
function controlledRun<I, O>(answer: (input: I) => O) {
  const calls: { inputs: I[]; finish(error?: unknown): void }[] = [];
  const run = (units: readonly GroupUnit<I>[]) =>
    new Promise<O[]>((resolve, reject) => {
      const inputs = units.map((u) => u.input);
      calls.push({
        inputs,
        finish: (error) => (error ? reject(error) : resolve(inputs.map(answer))),
      });
    });
  return { calls, run };
}

/** Lets every pending promise callback run. */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('GroupCommitter', () => {
  it('starts a lone unit at once, alone, and gives it its own answer', async () => {
    const { calls, run } = controlledRun((n: number) => n * 10);
    const committer = new GroupCommitter(run, { name: 't', maxConcurrentGroups: 1 });
    const answer = committer.submit(1);
    expect(calls.map((c) => c.inputs)).toEqual([[1]]);
    calls[0]!.finish();
    await expect(answer).resolves.toBe(10);
  });

  it('queues arrivals while a group runs and commits them together in the next group', async () => {
    const { calls, run } = controlledRun((n: number) => n * 10);
    const committer = new GroupCommitter(run, { name: 't', maxConcurrentGroups: 1 });
    const first = committer.submit(1);
    const rest = [2, 3, 4].map((n) => committer.submit(n));
    expect(calls).toHaveLength(1);
    expect(committer.queued).toBe(3);
    calls[0]!.finish();
    await first;
    await settle();
    expect(calls.map((c) => c.inputs)).toEqual([[1], [2, 3, 4]]);
    calls[1]!.finish();
    await expect(Promise.all(rest)).resolves.toEqual([20, 30, 40]);
    expect(committer.stats).toMatchObject({ groups: 2, units: 4, largestGroup: 3, splits: 0 });
  });

  it('runs at most maxConcurrentGroups groups at once and at most maxGroupSize units in one', async () => {
    const { calls, run } = controlledRun((n: number) => n);
    const committer = new GroupCommitter(run, { name: 't', maxConcurrentGroups: 2, maxGroupSize: 2 });
    const all = [1, 2, 3, 4, 5, 6, 7].map((n) => committer.submit(n));
    expect(calls.map((c) => c.inputs)).toEqual([[1], [2]]);
    calls[0]!.finish();
    await settle();
    expect(calls.map((c) => c.inputs)).toEqual([[1], [2], [3, 4]]);
    calls[1]!.finish();
    await settle();
    expect(calls.map((c) => c.inputs)).toEqual([[1], [2], [3, 4], [5, 6]]);
    calls[2]!.finish();
    calls[3]!.finish();
    await settle();
    calls[4]!.finish();
    await expect(Promise.all(all)).resolves.toEqual([1, 2, 3, 4, 5, 6, 7]);
    await committer.whenIdle();
  });

  it('refuses a unit past maxQueued with OverloadedError, and takes units again once the queue drains', async () => {
    const { calls, run } = controlledRun((n: number) => n);
    const committer = new GroupCommitter(run, {
      name: 'declarations',
      maxConcurrentGroups: 1,
      maxQueued: 2,
      retryAfterSeconds: 3,
    });
    const taken = [1, 2, 3].map((n) => committer.submit(n));
    const refused = committer.submit(4);
    await expect(refused).rejects.toBeInstanceOf(OverloadedError);
    await expect(refused).rejects.toMatchObject({ retryAfterSeconds: 3 });
    expect(committer.stats.overloaded).toBe(1);
    calls[0]!.finish();
    await settle();
    calls[1]!.finish();
    await expect(Promise.all(taken)).resolves.toEqual([1, 2, 3]);
    const later = committer.submit(5);
    calls[2]!.finish();
    await expect(later).resolves.toBe(5);
  });

  it('splits a group that failed unexpectedly: each unit runs alone, and only the bad one fails', async () => {
    const groups: number[][] = [];
    const committer = new GroupCommitter<number, number>(
      async (units) => {
        const inputs = units.map((u) => u.input);
        groups.push(inputs);
        await Promise.resolve();
        if (inputs.includes(13)) throw new Error('unit 13 is bad');
        return inputs;
      },
      { name: 't', maxConcurrentGroups: 1 },
    );
    const first = committer.submit(1);
    const rest = [12, 13, 14].map((n) => committer.submit(n).catch((e: Error) => e.message));
    await first;
    await expect(Promise.all(rest)).resolves.toEqual([12, 'unit 13 is bad', 14]);
    expect(groups).toEqual([[1], [12, 13, 14], [12], [13], [14]]);
    expect(committer.stats.splits).toBe(1);
  });

  it('fails every unit of a group on a transient failure, without retrying each (it failed for all)', async () => {
    const groups: number[][] = [];
    const lost = Object.assign(new Error('Connection terminated unexpectedly'), { code: 'ECONNRESET' });
    const committer = new GroupCommitter<number, number>(
      async (units) => {
        groups.push(units.map((u) => u.input));
        await Promise.resolve();
        if (groups.length > 1) throw lost;
        return units.map((u) => u.input);
      },
      { name: 't', maxConcurrentGroups: 1 },
    );
    const first = committer.submit(1);
    const rest = [2, 3].map((n) => committer.submit(n).catch((e: unknown) => e));
    await first;
    await expect(Promise.all(rest)).resolves.toEqual([lost, lost]);
    expect(groups).toEqual([[1], [2, 3]]);
  });

  it("runs a unit's code in the context it was submitted from, and the group in none", async () => {
    const als = new AsyncLocalStorage<string>();
    const seen: (string | undefined)[] = [];
    const groupsSaw: (string | undefined)[] = [];
    const committer = new GroupCommitter<number, number>(
      async (units) => {
        groupsSaw.push(als.getStore());
        await Promise.resolve();
        for (const u of units) seen.push(u.within(() => als.getStore()));
        return units.map((u) => u.input);
      },
      { name: 't', maxConcurrentGroups: 1 },
    );
    await Promise.all(['a', 'b', 'c'].map((id, i) => als.run(id, () => committer.submit(i))));
    expect(seen).toEqual(['a', 'b', 'c']);
    // the group itself belongs to no caller (it would otherwise carry the first one's correlation)
    expect(groupsSaw).toEqual([undefined, undefined]);
  });
});
