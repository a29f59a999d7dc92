import { makeEnvelope } from '@openq/contracts';
import { eachTestNatsAndDatabase } from '@openq/testing';
import type { EventHandlerFn } from './inbound';
import { PING, pingProcessor } from './__fixtures__/ping-service.fixture';

/*
 * `EventContext.batch`: each message's handler sees the envelopes of the new messages its
 * transaction applies, in the order their handlers run (the notifier closes a batch's answers in
 * one statement at the first of them).
 */

const t = eachTestNatsAndDatabase();

function recording(seen: Map<number, number[]>): EventHandlerFn {
  return async (data, ctx) => {
    seen.set(
      (data as { n: number }).n,
      ctx.batch.map((e) => (e.data as { n: number }).n),
    );
  };
}

describe("a message's batch", () => {
  it('is every new message of the transaction, in the order their handlers run; a message alone sees itself', async () => {
    const seen = new Map<number, number[]>();
    const { ds, processor, next, publish } = await pingProcessor(t, 'batch-seen', recording(seen));
    await publish(makeEnvelope(PING, 'p1', { n: 1, note: 'alone' }));
    const alone = await next();
    expect(await processor.process(alone)).toBe('ack');
    processor.settle(alone, 'ack');
    expect(seen.get(1)).toEqual([1]);

    // 2 and 3 on one subject, 4 on another.
    for (const [n, project] of [
      [2, 'p1'],
      [3, 'p1'],
      [4, 'p2'],
    ] as const)
      await publish(makeEnvelope(PING, project, { n, note: 'batch' }));
    const batch = [await next(), await next(), await next()];
    expect(await processor.processBatch(batch)).toEqual(['ack', 'ack', 'ack']);
    for (const msg of batch) processor.settle(msg, 'ack');
    // The handlers' order (the map's), which keeps each subject's: 2 before 3.
    const ran = [...seen.keys()].slice(1);
    expect([...ran].sort()).toEqual([2, 3, 4]);
    expect(ran.indexOf(2)).toBeLessThan(ran.indexOf(3));
    for (const n of ran) expect(seen.get(n)).toEqual(ran);
    await ds.destroy();
  });
});
