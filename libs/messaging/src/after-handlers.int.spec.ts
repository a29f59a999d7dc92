import { makeEnvelope } from '@openq/contracts';
import { deferWrite, sendAheadOfNext } from '@openq/persistence';
import { eachTestNatsAndDatabase } from '@openq/testing';
import type { EventHandlerFn } from './inbound';
import { currentScope } from './trace-context';
import { countOf, PING, pingProcessor } from './__fixtures__/ping-service.fixture';

/*
 * `EventContext.afterHandlers`: a handler sends a statement ahead and reads its reply once every
 * handler of its message has run, so the handlers after it send theirs in the same round trip
 * (the gates' `question.answered`: the pipeline's answer, then the gate cycle's reads).
 */

const t = eachTestNatsAndDatabase();

/**
 * Two handlers of one message, as a chain runs them: the first sends an insert ahead and leaves the
 * reading of its reply (and a write that depends on it) for after the chain; the second reads.
 */
function chainOfTwo(log: string[]): EventHandlerFn {
  return async (data, ctx) => {
    const { n } = data as { n: number };
    // the first handler
    let settled = false;
    const { reply } = await sendAheadOfNext(
      ctx.manager,
      `INSERT INTO effects (event_id, n, applied_by) VALUES ($1, $2, 'first') RETURNING n`,
      [ctx.envelope.eventId, n],
    );
    void reply.then(() => (settled = true));
    ctx.afterHandlers(async () => {
      const [row] = (await reply) as { n: number }[];
      log.push(
        `after ${n}: read ${row!.n}, scope ${currentScope()?.correlationId === ctx.envelope.correlationId}`,
      );
      await deferWrite(
        ctx.manager,
        `UPDATE effects SET applied_by = 'first, then after' WHERE event_id = $1`,
        [ctx.envelope.eventId],
      );
    });
    log.push(`first ${n}: done, reply ${settled ? 'in' : 'not in yet'}`);
    // the second handler
    const [{ count }] = await ctx.manager.query(`SELECT count(*)::int AS count FROM effects WHERE n = $1`, [
      n,
    ]);
    log.push(`second ${n}: saw ${count}`);
    if (n === 13) throw new Error('the second handler failed');
  };
}

describe('work a handler leaves for after its message’s handlers', () => {
  it('runs once the chain has run, in the message’s scope and transaction, before its outbox rows', async () => {
    const log: string[] = [];
    const { ds, processor, next, publish } = await pingProcessor(t, 'after-one', chainOfTwo(log));
    const envelope = makeEnvelope(PING, 'p1', { n: 11, note: 'chain' });
    await publish(envelope);
    const msg = await next();
    expect(await processor.process(msg)).toBe('ack');
    processor.settle(msg, 'ack');
    // The one-statement try stops at the first statement that needs a reply; the transaction runs it all.
    expect(log.slice(-3)).toEqual([
      'first 11: done, reply not in yet',
      'second 11: saw 1',
      'after 11: read 11, scope true',
    ]);
    expect(
      await countOf(ds, `SELECT count(*) AS n FROM effects WHERE applied_by = 'first, then after'`),
    ).toBe(1);
    await ds.destroy();
  });

  it("runs a batch's messages one after the other: a message's work after its chain comes before the next message", async () => {
    const log: string[] = [];
    const { ds, processor, next, publish } = await pingProcessor(t, 'after-batch', chainOfTwo(log));
    for (const n of [21, 22]) await publish(makeEnvelope(PING, 'p1', { n, note: 'chain' }));
    const batch = [await next(), await next()];
    expect(await processor.processBatch(batch)).toEqual(['ack', 'ack']);
    for (const msg of batch) processor.settle(msg, 'ack');
    const ran = log.slice(-6).map((line) => line.split(':')[0]);
    expect(ran).toEqual(['first 21', 'second 21', 'after 21', 'first 22', 'second 22', 'after 22']);
    expect(
      await countOf(ds, `SELECT count(*) AS n FROM effects WHERE applied_by = 'first, then after'`),
    ).toBe(2);
    await ds.destroy();
  });

  it('keeps nothing of a message whose chain failed, and never runs its work after', async () => {
    const log: string[] = [];
    const { ds, processor, next, publish } = await pingProcessor(t, 'after-fails', chainOfTwo(log));
    await publish(makeEnvelope(PING, 'p1', { n: 13, note: 'chain' }));
    const msg = await next();
    expect(await processor.process(msg)).not.toBe('ack');
    expect(log.some((line) => line.startsWith('after 13'))).toBe(false);
    expect(await countOf(ds, `SELECT count(*) AS n FROM effects`)).toBe(0);
    await ds.destroy();
  });
});
