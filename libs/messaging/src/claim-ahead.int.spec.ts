import { makeEnvelope } from '@openq/contracts';
import { deferWrite, recordStatements } from '@openq/persistence';
import { eachTestNatsAndDatabase } from '@openq/testing';
import type { DataSource } from 'typeorm';
import type { EventHandlerFn as HandlerFn } from './inbound';
import { countOf, PING, pingProcessor } from './__fixtures__/ping-service.fixture';

/*
 * A first delivery whose handler reads takes the usual transaction, but its claim (inbox row,
 * position, turn) goes ahead of the handler's first statement instead of being waited for
 * (`InboundProcessor.applyWithClaimAhead`). A claim that refuses (the inbox had the message) fails
 * the handler's statements behind it: nothing is kept, and the usual way acks it without effect.
 */

const t = eachTestNatsAndDatabase();

/** A handler that reads before it writes (so it cannot go as one statement), and how often it ran. */
function readingHandler(): { handler: HandlerFn; runs: () => number } {
  let runs = 0;
  const handler: HandlerFn = async (data, ctx) => {
    runs++;
    await ctx.manager.query(`SELECT count(*) FROM effects WHERE n = $1`, [(data as { n: number }).n]);
    await deferWrite(ctx.manager, `INSERT INTO effects (event_id, n, applied_by) VALUES ($1, $2, 'x')`, [
      ctx.envelope.eventId,
      (data as { n: number }).n,
    ]);
  };
  return { handler, runs: () => runs };
}

const statementsOf = async (ds: DataSource, work: () => Promise<void>) =>
  (await recordStatements(ds, work)).sent;

describe('the claim sent ahead of the handler', () => {
  it('applies a first delivery without a claim of its own to wait for', async () => {
    const { handler, runs } = readingHandler();
    const { ds, processor, next, publish } = await pingProcessor(t, 'ahead', handler);
    const envelope = makeEnvelope(PING, 'p1', { n: 1, note: 'read' });
    await publish(envelope, envelope.eventId);
    const msg = await next();
    const sent = await statementsOf(ds, async () => {
      expect(await processor.process(msg)).toBe('ack');
    });
    processor.settle(msg, 'ack');
    // The one-statement try stopped at the read (nothing sent); then one transaction whose claim is
    // the one-statement claim, not the usual claim that is waited for. (A statement sent ahead is
    // told to subscribers when its reply comes: the recorded order is not the wire's.)
    expect(sent[0]).toBe('START TRANSACTION');
    expect(sent.filter((s) => /INSERT INTO inbox/.test(s))).toEqual([
      expect.stringMatching(/INSERT INTO inbox .*SELECT 1 \/ \(CASE WHEN/s),
    ]);
    expect(sent[sent.length - 1]).toBe('COMMIT');
    expect(runs()).toBe(2); // the one-statement try (stopped at the read), then the transaction
    expect(await countOf(ds, `SELECT count(*) AS n FROM effects`)).toBe(1);
    await ds.destroy();
  });

  it('keeps nothing of a copy the inbox had, and acks it without effect', async () => {
    const { handler, runs } = readingHandler();
    const { ds, processor, next, publish } = await pingProcessor(t, 'copy', handler);
    const envelope = makeEnvelope(PING, 'p1', { n: 2, note: 'read' });
    await publish(envelope, envelope.eventId);
    await publish(envelope, `${envelope.eventId}-copy`);
    const first = await next();
    expect(await processor.process(first)).toBe('ack');
    processor.settle(first, 'ack');
    const copy = await next();
    expect(copy.info.redelivered).toBe(false); // a first delivery: the claim goes ahead
    const sent = await statementsOf(ds, async () => {
      expect(await processor.process(copy)).toBe('ack');
    });
    processor.settle(copy, 'ack');
    // The handler ran behind the refusing claim, its read failed with the claim's error; then the
    // usual transaction found the message in the inbox.
    expect(sent.filter((s) => s === 'START TRANSACTION')).toHaveLength(2);
    // the first message: 2 (as above); the copy: 1, behind the claim (the type now skips the
    // one-statement try; the usual transaction does not run a handler for a message it had)
    expect(runs()).toBe(3);
    expect(await countOf(ds, `SELECT count(*) AS n FROM effects`)).toBe(1);
    expect(await countOf(ds, `SELECT count(*) AS n FROM inbox`)).toBe(1);
    await ds.destroy();
  });

  it("throws a handler's own failure once, without trying the message again the usual way", async () => {
    let runs = 0;
    const { ds, processor, next, publish } = await pingProcessor(t, 'fails', async (_data, ctx) => {
      runs++;
      await ctx.manager.query(`SELECT 1`);
      throw new Error('the handler failed');
    });
    const envelope = makeEnvelope(PING, 'p1', { n: 3, note: 'fails' });
    await publish(envelope, envelope.eventId);
    const msg = await next();
    expect(await processor.process(msg)).not.toBe('ack');
    expect(runs).toBe(2); // the one-statement try (stopped at the read), then the transaction: no third

    expect(await countOf(ds, `SELECT count(*) AS n FROM inbox`)).toBe(0);
    await ds.destroy();
  });

  it('applies a batch of first deliveries behind one claim, and a batch with a copy the usual way', async () => {
    const { handler, runs } = readingHandler();
    const { ds, processor, next, publish } = await pingProcessor(t, 'batch', handler);
    const envelopes = [4, 5, 6].map((n) => makeEnvelope(PING, 'p1', { n, note: 'read' }));
    for (const e of envelopes) await publish(e, e.eventId);
    const batch = [await next(), await next(), await next()];
    const sent = await statementsOf(ds, async () => {
      expect(await processor.processBatch(batch)).toEqual(['ack', 'ack', 'ack']);
    });
    for (const msg of batch) processor.settle(msg, 'ack');
    expect(sent.filter((s) => s === 'START TRANSACTION')).toHaveLength(1);
    expect(sent.filter((s) => /INSERT INTO inbox/.test(s))).toEqual([
      expect.stringMatching(/INSERT INTO inbox .*SELECT 1 \/ \(CASE WHEN/s),
    ]);
    expect(await countOf(ds, `SELECT count(*) AS n FROM effects`)).toBe(3);
    const before = runs();
    // a copy of an applied message beside a new one: the claim refuses, the batch's usual
    // transaction applies the new one and acks the copy without effect
    const fresh = makeEnvelope(PING, 'p1', { n: 7, note: 'read' });
    await publish(envelopes[0]!, `${envelopes[0]!.eventId}-copy`);
    await publish(fresh, fresh.eventId);
    const mixed = [await next(), await next()];
    expect(await processor.processBatch(mixed)).toEqual(['ack', 'ack']);
    for (const msg of mixed) processor.settle(msg, 'ack');
    expect(runs() - before).toBe(2); // the first behind the refusing claim (its read fails), then the new one
    expect(await countOf(ds, `SELECT count(*) AS n FROM effects`)).toBe(4);
    expect(await countOf(ds, `SELECT count(*) AS n FROM inbox`)).toBe(4);
    await ds.destroy();
  });
});
