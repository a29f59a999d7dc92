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
});
