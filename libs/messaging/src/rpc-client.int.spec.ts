import { Socket } from 'node:net';
import { connect } from 'nats';
import { eachTestNatsAndDatabase } from '@openq/testing';
import { RpcClient } from './rpc-client';
import { startPingService } from './__fixtures__/ping-service.fixture';

/*
 * Requests made in one turn of the event loop go to NATS in one socket write (`RpcClient`), even
 * when each was made in a callback of its own, as a burst of HTTP requests is parsed.
 */

const t = eachTestNatsAndDatabase();

/** The socket writes of this process that carry a request to `openq.testsvc.echo`, while `work` runs. */
async function requestWrites(work: () => Promise<void>): Promise<number> {
  const write = Socket.prototype.write;
  let writes = 0;
  Socket.prototype.write = function (this: Socket, chunk: unknown, ...rest: unknown[]) {
    if (typeof chunk !== 'string' && Buffer.from(chunk as Uint8Array).includes('openq.testsvc.echo'))
      writes++;
    return (write as (...a: unknown[]) => boolean).call(this, chunk, ...rest);
  } as typeof write;
  try {
    await work();
  } finally {
    Socket.prototype.write = write;
  }
  return writes;
}

describe('RpcClient: the requests of one turn share a socket write', () => {
  it('sends 20 requests made in 20 callbacks of one turn in one write, each answered', async () => {
    const service = await startPingService(t.nc, t.db.url);
    const rpc = new RpcClient(t.nc, 5000);
    expect(await rpc.request('testsvc', 'echo', { text: 'warm' })).toMatchObject({ ok: true });
    let replies: unknown[] = [];
    const writes = await requestWrites(async () => {
      // Each in a callback of its own, in the same turn: as I/O callbacks of one poll are.
      const made = Array.from(
        { length: 20 },
        (_, i) =>
          new Promise<unknown>((resolve) =>
            setImmediate(() => resolve(rpc.request('testsvc', 'echo', { text: `r${i}` }))),
          ),
      );
      replies = await Promise.all(made);
    });
    expect(replies).toEqual(Array.from({ length: 20 }, (_, i) => ({ ok: true, data: { echoed: `r${i}` } })));
    expect(writes).toBe(1);
    await service.close();
  });

  it('answers a lone request, and a request on a closed connection fails alone', async () => {
    const service = await startPingService(t.nc, t.db.url);
    const rpc = new RpcClient(t.nc, 5000);
    expect(await rpc.request('testsvc', 'echo', { text: 'alone' })).toEqual({
      ok: true,
      data: { echoed: 'alone' },
    });
    await service.close();
    const other = await connect({ servers: t.nats.url });
    const closed = new RpcClient(other, 1000);
    await other.close();
    expect(await closed.request('testsvc', 'echo', { text: 'late' })).toMatchObject({
      ok: false,
      error: { statusCode: 503, reason: 'servico_indisponivel' },
    });
  });
});
