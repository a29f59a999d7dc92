import { Limiter } from './limiter';

describe('Limiter', () => {
  it('runs at most `limit` tasks at once, the rest in order', async () => {
    const limiter = new Limiter(2);
    let running = 0;
    let peak = 0;
    const order: number[] = [];
    const gates: (() => void)[] = [];
    const task = (n: number) =>
      limiter.run(async () => {
        running++;
        peak = Math.max(peak, running);
        await new Promise<void>((resolve) => gates.push(resolve));
        order.push(n);
        running--;
        return n;
      });
    const all = Promise.all([1, 2, 3, 4].map(task));
    while (order.length < 4) {
      await new Promise((r) => setImmediate(r));
      gates.shift()?.();
    }
    expect(await all).toEqual([1, 2, 3, 4]);
    expect(order).toEqual([1, 2, 3, 4]);
    expect(peak).toBe(2);
  });

  it('frees the slot when a task fails', async () => {
    const limiter = new Limiter(1);
    await expect(limiter.run(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(limiter.run(() => Promise.resolve('next'))).resolves.toBe('next');
  });
});
