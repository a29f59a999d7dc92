import { headers, type JsMsg } from 'nats';
import { makeEnvelope } from '@openq/contracts';
import { RetryLaterError } from '../retry-later';
import {
  afterDeadLetterFailure,
  afterHandlerFailure,
  deadLetterRow,
  DEFAULT_MAX_ATTEMPTS,
  storable,
} from './dead-letter';

describe('afterHandlerFailure: when to give up on a message', () => {
  it('retries a transient failure later however many deliveries it took', () => {
    expect(afterHandlerFailure(new RetryLaterError('down'), 1)).toBe('retry-later');
    expect(afterHandlerFailure(new RetryLaterError('down'), 1_000, 2)).toBe('retry-later');
  });

  it('retries another failure before the last attempt and gives up on it', () => {
    expect(DEFAULT_MAX_ATTEMPTS).toBe(5);
    expect(afterHandlerFailure(new Error('bug'), 4)).toBe('retry');
    expect(afterHandlerFailure(new Error('bug'), 5)).toBe('give-up');
    expect(afterHandlerFailure('not even an Error', 6)).toBe('give-up');
    expect(afterHandlerFailure(new Error('bug'), 1, 2)).toBe('retry');
    expect(afterHandlerFailure(new Error('bug'), 2, 2)).toBe('give-up');
  });
});

describe('afterDeadLetterFailure', () => {
  it('retries later a transient failure, or any failure when there was no notice to blame', () => {
    expect(afterDeadLetterFailure(new RetryLaterError('down'), true)).toBe('retry-later');
    expect(afterDeadLetterFailure(new Error('constraint'), false)).toBe('retry-later');
  });

  it('dead-letters without the notice when the notice itself fails', () => {
    expect(afterDeadLetterFailure(new Error('constraint'), true)).toBe('without-notice');
  });
});

describe('deadLetterRow', () => {
  const msg = (data: string, msgId?: string) => {
    const h = headers();
    if (msgId) h.set('Nats-Msg-Id', msgId);
    return {
      subject: 'agent.test.ping.p1',
      seq: 42,
      headers: msgId ? h : undefined,
      data: new TextEncoder().encode(data),
      info: { deliveryCount: 3 },
    } as unknown as JsMsg;
  };

  it('records the consumer, the message, the reason and the deliveries', () => {
    expect(deadLetterRow('svc__ping', msg('{"x":1}', 'm-1'), 'json_invalido', 'not JSON', null)).toEqual([
      'svc__ping',
      'agent.test.ping.p1',
      42,
      'm-1',
      'json_invalido',
      'not JSON',
      '{"x":1}',
      3,
    ]);
  });

  it("takes the publisher's message id, else the envelope's id, else none", () => {
    const envelope = makeEnvelope('agent.test.ping', 'p1', {});
    expect(deadLetterRow('c', msg('x', 'm-1'), 'r', 'm', envelope)[3]).toBe('m-1');
    expect(deadLetterRow('c', msg('x'), 'r', 'm', envelope)[3]).toBe(envelope.eventId);
    expect(deadLetterRow('c', msg('x'), 'r', 'm', null)[3]).toBeNull();
  });

  it('replaces NUL, which PostgreSQL text cannot hold, and cuts the message and the payload', () => {
    const row = deadLetterRow(
      'c',
      msg(`a\u0000b${'p'.repeat(70_000)}`, 'id\u0000'),
      'r',
      `m\u0000${'m'.repeat(3000)}`,
      null,
    );
    expect(row[3]).toBe('id\uFFFD');
    expect(row[5]).toMatch(/^m\uFFFDm/);
    expect((row[5] as string).length).toBe(2000);
    expect((row[6] as string).startsWith('a\uFFFDb')).toBe(true);
    expect((row[6] as string).length).toBe(65_536);
    expect(storable(null)).toBeNull();
  });
});
