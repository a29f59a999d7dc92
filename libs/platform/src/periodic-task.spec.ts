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

  it('runs once at start, then every interval, on a timer that keeps no process alive', async () => {
    jest.useFakeTimers();
    const run = jest.fn(async () => undefined);
    const setIntervalSpy = jest.spyOn(global, 'setInterval');
    const task = new PeriodicTask(1000, run, () => undefined);
    task.start();
    expect(run).toHaveBeenCalledTimes(1);
    expect(task.running).toBe(true);
    const timer = setIntervalSpy.mock.results[0]?.value as NodeJS.Timeout;
    expect(timer.hasRef()).toBe(false);
    await jest.advanceTimersByTimeAsync(3000);
    expect(run).toHaveBeenCalledTimes(4);
    await task.stop();
    setIntervalSpy.mockRestore();
  });

  it('starts once however often it is started (one timer per hybrid app)', async () => {
    jest.useFakeTimers();
    const run = jest.fn(async () => undefined);
    const task = new PeriodicTask(1000, run, () => undefined);
    task.start();
    task.start();
    expect(jest.getTimerCount()).toBe(1);
    await jest.advanceTimersByTimeAsync(1000);
    expect(run).toHaveBeenCalledTimes(2);
    await task.stop();
  });

  it('skips a tick while a run is in flight', async () => {
    jest.useFakeTimers();
    const { run, release } = heldRuns();
    const task = new PeriodicTask(1000, run, () => undefined);
    task.start();
    await jest.advanceTimersByTimeAsync(5000);
    expect(run).toHaveBeenCalledTimes(1);
    release();
    await jest.advanceTimersByTimeAsync(1000);
    expect(run).toHaveBeenCalledTimes(2);
    release();
    await task.stop();
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

  it('hands a failed run to onError and runs again on the next tick', async () => {
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
