import type { Msg, MsgHdrs, NatsConnection, RequestOptions } from 'nats';
import type { QuestionStatusItem } from '@openq/contracts';
import { RetryLaterError } from '@openq/messaging';
import { QuestionOwner } from './question-owner';

interface Asked {
  subject: string;
  payload: unknown;
  correlationId: string | undefined;
}

/** A NATS connection that answers every request with `reply` and records what was asked. */
function fakeNats(reply: unknown): { nc: NatsConnection; asked: Asked[] } {
  const asked: Asked[] = [];
  const nc = {
    request: async (subject: string, data: Uint8Array, opts: RequestOptions) => {
      const headers = opts.headers as MsgHdrs | undefined;
      const correlationId = headers?.has('x-correlation-id') ? headers.get('x-correlation-id') : undefined;
      asked.push({ subject, payload: JSON.parse(new TextDecoder().decode(data)), correlationId });
      return { data: new TextEncoder().encode(JSON.stringify(reply)) } as Msg;
    },
  } as unknown as NatsConnection;
  return { nc, asked };
}

const answered: QuestionStatusItem = {
  questionId: 'q1',
  status: 'answered',
  decisionEventId: 'd1',
  answeredAt: '2026-12-01T10:00:00.000Z',
};

describe('QuestionOwner', () => {
  it('asks openq.questions.status about the ids and returns its items', async () => {
    const { nc, asked } = fakeNats({ ok: true, data: { items: [answered] } });
    const items = await new QuestionOwner(nc).statusOf('p1', ['q1', 'q2'], 'corr-1');
    expect(items).toEqual([answered]);
    expect(asked).toEqual([
      {
        subject: 'openq.questions.status',
        payload: { projectId: 'p1', questionIds: ['q1', 'q2'] },
        correlationId: 'corr-1',
      },
    ]);
  });

  it('sends no correlation id of its own when none is given', async () => {
    const { nc, asked } = fakeNats({ ok: true, data: { items: [] } });
    await new QuestionOwner(nc).statusOf('p1', ['q1']);
    expect(asked[0]?.correlationId).toBeUndefined();
  });

  it('asks nothing about no ids', async () => {
    const { nc, asked } = fakeNats({ ok: true, data: { items: [] } });
    expect(await new QuestionOwner(nc).statusOf('p1', [], 'corr-1')).toEqual([]);
    expect(asked).toEqual([]);
  });

  it('throws RetryLaterError while the owner is down (503), a plain Error for another failure', async () => {
    const down = fakeNats({
      ok: false,
      error: { statusCode: 503, reason: 'servico_indisponivel', message: 'down' },
    });
    await expect(new QuestionOwner(down.nc).statusOf('p1', ['q1'])).rejects.toBeInstanceOf(RetryLaterError);
    const bad = fakeNats({ ok: false, error: { statusCode: 400, reason: 'corpo_invalido', message: 'bad' } });
    const error = await new QuestionOwner(bad.nc).statusOf('p1', ['q1']).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(RetryLaterError);
  });
});
