import { deciderSpec } from '@openq/testing/decider';
import type { RetryPolicy } from './backoff';
import { deliveryLife, type DeliveryAttempted, type DeliveryCommand } from './delivery';

const policy: RetryPolicy = { maxAttempts: 5, baseMs: 1000, maxMs: 10_000 };
const at = (step: number) => new Date(Date.UTC(2026, 11, 1, 9, 0, step));
const { given, history } = deciderSpec(deliveryLife(policy), at);

/** A delivery claimed `n` times (each claim's lease is one attempt). */
const attempted = (n: number): DeliveryAttempted[] =>
  history(Array.from({ length: n }, (): DeliveryCommand => ({ type: 'claim' }))) as DeliveryAttempted[];

const failure = (permanent: boolean, random = 0.5, retryAfterMs?: number): DeliveryCommand => ({
  type: 'record_failure',
  reason: permanent ? 'http_4xx' : 'http_5xx',
  permanent,
  random,
  ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
});

describe("a delivery's life (issue #17)", () => {
  it('each claim is one more attempt', () => {
    given([])
      .when({ type: 'claim' }, 0)
      .then([{ type: 'delivery.attempted', data: { attempt: 1 }, occurredAt: at(0) }]);
    expect(given(attempted(3)).state).toEqual({ status: 'pending', attempts: 3 });
  });

  it('dead-letters a permanent failure at once, and the last attempt', () => {
    given(attempted(1))
      .when(failure(true), 7)
      .then([{ type: 'delivery.given_up', data: { attempt: 1, reason: 'http_4xx' }, occurredAt: at(7) }]);
    given(attempted(5))
      .when(failure(false), 7)
      .then([{ type: 'delivery.given_up', data: { attempt: 5, reason: 'http_5xx' }, occurredAt: at(7) }]);
    given(attempted(4))
      .when(failure(false), 7)
      .then([
        {
          type: 'delivery.retry_scheduled',
          data: { attempt: 4, delayMs: 6000, reason: 'http_5xx' },
          occurredAt: at(7),
        },
      ]);
    expect(given(attempted(5)).when(failure(false)).state.status).toBe('dead');
    expect(given(attempted(4)).when(failure(false)).state).toEqual({ status: 'pending', attempts: 4 });
  });

  it("waits the receiver's Retry-After when it is longer than the backoff, never shorter", () => {
    given(attempted(1))
      .when(failure(false, 0, 30_000), 7)
      .then([
        {
          type: 'delivery.retry_scheduled',
          data: { attempt: 1, delayMs: 30_000, reason: 'http_5xx' },
          occurredAt: at(7),
        },
      ]);
    expect(given(attempted(1)).when(failure(false, 0, 10)).events[0]?.data).toMatchObject({ delayMs: 500 });
  });

  it('sent is sent; nothing to send it through gives it up with why', () => {
    const sent = given(attempted(2)).when({ type: 'record_sent' }, 3);
    sent.then([{ type: 'delivery.sent', data: { attempt: 2 }, occurredAt: at(3) }]);
    expect(sent.state).toEqual({ status: 'sent', attempts: 2 });
    given(attempted(1))
      .when({ type: 'give_up', reason: 'canal_removido' }, 3)
      .then([
        { type: 'delivery.given_up', data: { attempt: 1, reason: 'canal_removido' }, occurredAt: at(3) },
      ]);
  });

  it('a delivery sent or given up changes no more', () => {
    const sent = [
      ...attempted(1),
      { type: 'delivery.sent' as const, data: { attempt: 1 }, occurredAt: at(1) },
    ];
    given(sent).when(failure(false)).then([]);
    given(sent).when({ type: 'claim' }).then([]);
    const dead = [
      ...attempted(1),
      { type: 'delivery.given_up' as const, data: { attempt: 1, reason: 'http_4xx' }, occurredAt: at(1) },
    ];
    given(dead).when({ type: 'record_sent' }).then([]);
  });
});
