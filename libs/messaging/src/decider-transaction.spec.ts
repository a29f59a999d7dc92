import type { EntityManager } from 'typeorm';
import type { Decider, DomainEvent } from '@openq/contracts';
import { DeciderTransaction, type Saved } from './decider-transaction';
import { OutboxWriter } from './outbox';

// A tally per project: `add` decides one `tally.added` per amount; `evolve` sums them.
type Added = DomainEvent<'tally.added', { amount: number }>;
type Tally = { projectId: string; total: number };
const tally: Decider<{ amounts: number[] }, Tally, Added> = {
  initialState: { projectId: 'p1', total: 0 },
  decide: ({ amounts }, _state, now) =>
    amounts.map((amount) => ({ type: 'tally.added', data: { amount }, occurredAt: now })),
  evolve: (state, event) => ({ ...state, total: state.total + event.data.amount }),
};

const at = new Date('2026-01-01T00:00:00Z');

function transaction(save: (state: Tally, events: readonly Added[]) => void | Saved<Tally, Added>) {
  // The outbox only queues here: `flush`, the one write, is never called.
  const outbox = new OutboxWriter({} as EntityManager, {}, {});
  const tx = new DeciderTransaction(
    {
      decider: tally,
      projectOf: (s) => s.projectId,
      toWire: (e) => (e.data.amount === 0 ? null : { type: e.type, data: e.data, occurredAt: e.occurredAt }),
      save: (state, { events }) => Promise.resolve(save(state, events)),
    },
    outbox,
  );
  const queued = () => outbox.queued.map((e) => [e.type, (e.data as { amount: number }).amount]);
  return { tx, queued };
}

describe('DeciderTransaction', () => {
  it('publishes every published event when save stores all it was given', async () => {
    const { tx, queued } = transaction(() => undefined);
    const decided = await tx.decideAccepted({ amounts: [1, 0, 2] }, tally.initialState, at);
    expect(decided.state.total).toBe(3);
    expect(decided.events).toHaveLength(3);
    expect(queued()).toEqual([
      ['tally.added', 1],
      ['tally.added', 2],
    ]);
  });

  it('publishes only the events save says it stored, and returns the state save says stands', async () => {
    const { tx, queued } = transaction((_state, events) => ({
      state: { projectId: 'p1', total: 40 },
      events: events.filter((e) => e.data.amount !== 1),
    }));
    const decided = await tx.decideAccepted({ amounts: [1, 0, 2] }, tally.initialState, at);
    expect(decided.state.total).toBe(40);
    expect(decided.events.map((e) => e.data.amount)).toEqual([0, 2]);
    expect(queued()).toEqual([['tally.added', 2]]);
  });

  it('publishes nothing when save stored nothing (another transaction won)', async () => {
    const winner = { projectId: 'p1', total: 7 };
    const { tx, queued } = transaction(() => ({ state: winner, events: [] }));
    const decided = await tx.decideAccepted({ amounts: [5] }, tally.initialState, at);
    expect(decided).toEqual({ state: winner, events: [] });
    expect(queued()).toEqual([]);
  });

  it('decides a batch in memory, each command on the state the earlier ones left on its key, and saves it with one saveAll', async () => {
    // A counter per key that refuses to go past 10: the second +6 on key a is refused, on b it is not.
    const capped: Decider<{ amount: number }, Tally, Added> = {
      initialState: { projectId: 'p1', total: 0 },
      decide: ({ amount }, state, now) =>
        state.total + amount > 10
          ? { refused: true, statusCode: 409, reason: 'sobrecarregado', message: 'over 10' }
          : [{ type: 'tally.added', data: { amount }, occurredAt: now }],
      evolve: tally.evolve,
    };
    const calls: { totals: number[] }[] = [];
    const outbox = new OutboxWriter({} as EntityManager, {}, {});
    const second = outbox.forUnit();
    const tx = new DeciderTransaction(
      {
        decider: capped,
        projectOf: (s) => s.projectId,
        toWire: (e) => ({ type: e.type, data: e.data, occurredAt: e.occurredAt }),
        save: () => Promise.reject(new Error('a batch saves with saveAll')),
        saveAll: (entries) => {
          calls.push({ totals: entries.map((e) => e.state.total) });
          return Promise.resolve(entries.map(() => undefined));
        },
      },
      outbox,
    );
    const batch = tx.batch(new Map([['a', { projectId: 'p1', total: 4 }]]));
    const a1 = batch.decide('a', { amount: 6 }, at);
    const a2 = batch.decide('a', { amount: 6 }, at, second);
    const b1 = batch.decide('b', { amount: 6 }, at, second);
    expect(a2).toMatchObject({ refused: true, reason: 'sobrecarregado' });
    expect(batch.stateOf('a').total).toBe(10);
    await batch.commit();
    expect(calls).toEqual([{ totals: [10, 6] }]);
    expect(a1).toMatchObject({ before: { total: 4 }, stored: { state: { total: 10 } } });
    expect(b1).toMatchObject({ before: { total: 0 }, stored: { state: { total: 6 } } });
    // one queue for the batch: the unit's writer adds to the group's
    expect(outbox.queued.map((e) => (e.data as { amount: number }).amount)).toEqual([6, 6]);
  });
});
