import { TransactionSlots } from './transaction-slots';

describe('TransactionSlots', () => {
  it('gives at most `size` slots and takes them back', () => {
    const slots = new TransactionSlots(2);
    expect(slots.tryAcquire()).toBe(true);
    expect(slots.tryAcquire()).toBe(true);
    expect(slots.tryAcquire()).toBe(false);
    expect(slots.inUse).toBe(2);
    slots.release();
    expect(slots.tryAcquire()).toBe(true);
  });

  it('wakes every waiter once at a release, first come first', () => {
    const slots = new TransactionSlots(1);
    slots.tryAcquire();
    const woken: string[] = [];
    slots.whenFree(() => woken.push('a'));
    slots.whenFree(() => woken.push('b'));
    slots.release();
    expect(woken).toEqual(['a', 'b']);
    slots.tryAcquire();
    slots.release();
    expect(woken).toEqual(['a', 'b']); // each registration wakes once
  });

  it('forgets a waiter that leaves', () => {
    const slots = new TransactionSlots(1);
    slots.tryAcquire();
    const woken: string[] = [];
    const wake = () => woken.push('a');
    slots.whenFree(wake);
    slots.forget(wake);
    slots.release();
    expect(woken).toEqual([]);
  });

  it('refuses a size below one and a release without a slot', () => {
    expect(() => new TransactionSlots(0)).toThrow(/≥ 1/);
    expect(() => new TransactionSlots(1).release()).toThrow(/twice/);
  });
});
