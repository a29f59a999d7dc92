import type { JsMsg } from 'nats';
import { makeEnvelope } from '@openq/contracts';
import type { BatchItem } from './batch';
import type { Outcome } from './options';
import { admit } from './order';

const item = (subject: string, seq: number): BatchItem => ({
  msg: { subject, seq } as unknown as JsMsg,
  envelope: makeEnvelope('agent.test.ping', 'p1', {}),
});

describe('admit: which messages of a batch go now', () => {
  const a = [item('a', 1), item('a', 2), item('a', 5)];
  const b = [item('b', 3), item('b', 4)];
  const subjects = () =>
    new Map([
      ['a', a],
      ['b', b],
    ]);

  it('takes every message and moves each subject to its last one when there is no order', () => {
    const outcomes = new Map<JsMsg, Outcome>();
    const { taken, moved } = admit(subjects(), null, outcomes);
    expect(taken).toEqual([...a, ...b]);
    expect(moved).toEqual([
      { subject: 'a', seq: 5 },
      { subject: 'b', seq: 4 },
    ]);
    expect(outcomes.size).toBe(0);
  });

  it('takes the admitted prefix of each subject, defers the rest, and moves only past what it takes', () => {
    const outcomes = new Map<JsMsg, Outcome>();
    const { taken, moved } = admit(
      subjects(),
      new Map([
        ['a', 2],
        ['b', 0],
      ]),
      outcomes,
    );
    expect(taken).toEqual([a[0], a[1]]);
    expect(moved).toEqual([{ subject: 'a', seq: 2 }]);
    expect([...outcomes]).toEqual([
      [a[2]!.msg, 'defer'],
      [b[0]!.msg, 'defer'],
      [b[1]!.msg, 'defer'],
    ]);
  });

  it('takes all of a subject the admission does not name', () => {
    const { taken } = admit(subjects(), new Map([['a', 1]]), new Map());
    expect(taken).toEqual([a[0], ...b]);
  });
});
