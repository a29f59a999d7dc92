import { refusal, type Decider, type DomainEvent } from '@openq/contracts';
import { deciderSpec } from './decider';

type Added = DomainEvent<'added', { n: number }>;
type Command = { type: 'add'; n: number };
/** A counter that refuses to go above 10. */
const counter: Decider<Command, number, Added> = {
  initialState: 0,
  decide: (command, total, now) =>
    total + command.n > 10
      ? refusal(409, 'sobrecarregado', 'above 10')
      : [{ type: 'added', data: { n: command.n }, occurredAt: now }],
  evolve: (total, event) => total + event.data.n,
};
const at = (s: number) => new Date(Date.UTC(2026, 0, 1) + s * 1000);
const added = (n: number, s: number): Added => ({ type: 'added', data: { n }, occurredAt: at(s) });
const { given, history } = deciderSpec(counter, at);

describe('deciderSpec', () => {
  it('folds the given events from initialState and decides the command on the result', () => {
    expect(given([added(4, 0), added(5, 1)]).state).toBe(9);
    given([added(4, 0)])
      .when({ type: 'add', n: 6 }, 3)
      .then([added(6, 3)]);
    expect(given([added(4, 0)]).when({ type: 'add', n: 6 }).state).toBe(10);
  });

  it('asserts a refusal by its fields, and fails when the events are not the expected ones', () => {
    given([added(9, 0)])
      .when({ type: 'add', n: 2 })
      .then({ reason: 'sobrecarregado', statusCode: 409 });
    expect(() =>
      given([])
        .when({ type: 'add', n: 1 }, 1)
        .then([added(2, 1)]),
    ).toThrow();
    expect(() => given([]).when({ type: 'add', n: 1 }).then({ reason: 'sobrecarregado' })).toThrow(
      /not refused/,
    );
    expect(() => given([added(10, 0)]).when({ type: 'add', n: 1 }).events).toThrow(/refused: sobrecarregado/);
  });

  it('history is the events a run of commands decides, step i at clock(i); a refused step fails', () => {
    expect(
      history([
        { type: 'add', n: 2 },
        { type: 'add', n: 3 },
      ]),
    ).toEqual([added(2, 0), added(3, 1)]);
    expect(() => history([{ type: 'add', n: 11 }])).toThrow(/history step 0 refused/);
  });
});
