import { PeriodicTask } from './periodic-task';

/** A run the test finishes by hand. */
function heldRuns() {
  const releases: (() => void)[] = [];
  const run = jest.fn(() => new Promise<void>((resolve) => releases.push(resolve)));
  return { run, release: () => releases.shift()?.() };
}

const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('PeriodicTask', () => {
  afterEach(() => jest.useRealTimers());

  it('runs once at start, then an interval after each run, on a timer that keeps no process alive', async () => {
    jest.useFakeTimers();
    const run = jest.fn(async () => undefined);
    const setTimeoutSpy = jest.spyOn(global, 'setTimeout');
    const task = new PeriodicTask(1000, run, () => undefined);
    task.start();
    expect(run).toHaveBeenCalledTimes(1);
    expect(task.running).toBe(true);
    await jest.advanceTimersByTimeAsync(0);
    const timer = setTimeoutSpy.mock.results.at(-1)?.value as NodeJS.Timeout;
    expect(timer.hasRef()).toBe(false);
    await jest.advanceTimersByTimeAsync(3000);
    expect(run).toHaveBeenCalledTimes(4);
    await task.stop();
    setTimeoutSpy.mockRestore();
  });

  it('starts once however often it is started (one timer per hybrid app)', async () => {
    jest.useFakeTimers();
    const run = jest.fn(async () => undefined);
    const task = new PeriodicTask(1000, run, () => undefined);
    task.start();
    task.start();
    await jest.advanceTimersByTimeAsync(0);
    expect(jest.getTimerCount()).toBe(1);
    await jest.advanceTimersByTimeAsync(1000);
    expect(run).toHaveBeenCalledTimes(2);
    await task.stop();
  });

  it('never runs twice at once: the next run comes an interval after the one in flight ends', async () => {
    jest.useFakeTimers();
    const { run, release } = heldRuns();
    const task = new PeriodicTask(1000, run, () => undefined);
    task.start();
    await jest.advanceTimersByTimeAsync(5000);
    expect(run).toHaveBeenCalledTimes(1);
    release();
    await jest.advanceTimersByTimeAsync(999);
    expect(run).toHaveBeenCalledTimes(1);
    await jest.advanceTimersByTimeAsync(1);
    expect(run).toHaveBeenCalledTimes(2);
    release();
    await task.stop();
  });

  it('a kick runs now; kicks during a run make one more run right after it', async () => {
    jest.useFakeTimers();
    const { run, release } = heldRuns();
    const task = new PeriodicTask(60_000, run, () => undefined);
    task.kick();
    expect(run).toHaveBeenCalledTimes(0); // not started: nothing
    task.start();
    task.kick();
    task.kick();
    expect(run).toHaveBeenCalledTimes(1);
    release();
    await jest.advanceTimersByTimeAsync(0);
    expect(run).toHaveBeenCalledTimes(2); // the kicks, once, without waiting for the interval
    release();
    await jest.advanceTimersByTimeAsync(0);
    expect(run).toHaveBeenCalledTimes(2);
    task.kick(); // idle: at once, and the interval counts from this run's end
    expect(run).toHaveBeenCalledTimes(3);
    release();
    await jest.advanceTimersByTimeAsync(59_999);
    expect(run).toHaveBeenCalledTimes(3);
    await jest.advanceTimersByTimeAsync(1);
    expect(run).toHaveBeenCalledTimes(4);
    release();
    await task.stop();
    task.kick();
    expect(run).toHaveBeenCalledTimes(4);
  });

  it('stop waits for the run in flight, then nothing runs again', async () => {
    const { run, release } = heldRuns();
    const task = new PeriodicTask(5, run, () => undefined);
    task.start();
    let stopped = false;
    const stopping = task.stop().then(() => (stopped = true));
    expect(task.running).toBe(false);
    await settle();
    expect(stopped).toBe(false);
    release();
    await stopping;
    expect(stopped).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 30));
    task.start();
    expect(run).toHaveBeenCalledTimes(1);
  });

  it('takes a run that throws at once like one that rejects', async () => {
    jest.useFakeTimers();
    const errors: unknown[] = [];
    const run = jest.fn((): Promise<void> => {
      throw new Error('at once');
    });
    const task = new PeriodicTask(1000, run, (error) => errors.push(error));
    task.start();
    await jest.advanceTimersByTimeAsync(1000);
    expect(run).toHaveBeenCalledTimes(2);
    expect(errors).toEqual([new Error('at once'), new Error('at once')]);
    await task.stop();
  });

  it('hands a failed run to onError and runs again after the interval', async () => {
    jest.useFakeTimers();
    const errors: unknown[] = [];
    const run = jest.fn().mockRejectedValueOnce(new Error('boom')).mockResolvedValue(undefined);
    const task = new PeriodicTask(1000, run, (error) => errors.push(error));
    task.start();
    await jest.advanceTimersByTimeAsync(0);
    expect(errors).toEqual([new Error('boom')]);
    await jest.advanceTimersByTimeAsync(1000);
    expect(run).toHaveBeenCalledTimes(2);
    expect(errors).toHaveLength(1);
    await task.stop();
  });
});
