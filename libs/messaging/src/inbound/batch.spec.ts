import type { JsMsg } from 'nats';
import { makeEnvelope } from '@openq/contracts';
import { currentScope } from '../trace-context';
import { groupBySubject, inSubjectOrder, prepareBatch, PREPARE_CONCURRENCY, type BatchItem } from './batch';

const msg = (subject: string, seq: number) =>
  ({ subject, seq, headers: undefined, info: { deliveryCount: 1 } }) as unknown as JsMsg;
const item = (project: string, seq: number): BatchItem => ({
  msg: msg(`agent.test.ping.${project}`, seq),
  envelope: makeEnvelope('agent.test.ping', project, { seq }),
});

describe('inSubjectOrder', () => {
  it('sorts by subject, then by stream sequence as a number', () => {
    const sorted = [msg('b', 2), msg('a', 10), msg('b', 1), msg('a', 9)].sort(inSubjectOrder);
    expect(sorted.map((m) => `${m.subject}${m.seq}`)).toEqual(['a9', 'a10', 'b1', 'b2']);
  });
});

describe('groupBySubject', () => {
  it('groups the items by subject, keeping their order', () => {
    const items = [item('p1', 1), item('p1', 3), item('p2', 2), item('p2', 4)];
    const groups = groupBySubject(items);
    expect([...groups.keys()]).toEqual(['agent.test.ping.p1', 'agent.test.ping.p2']);
    expect(groups.get('agent.test.ping.p1')!.map((i) => i.msg.seq)).toEqual([1, 3]);
    expect(groups.get('agent.test.ping.p2')!.map((i) => i.msg.seq)).toEqual([2, 4]);
  });
});

describe('prepareBatch: the before-transaction steps', () => {
  const never = () => Promise.reject(new Error('not asked'));

  it('does nothing without a step', async () => {
    const items = [item('p1', 1)];
    await prepareBatch(items, { consumer: 'c' }, never);
    expect(items[0]!).not.toHaveProperty('prepared');
  });

  it(`gives each message its own result, in its own scope, at most ${PREPARE_CONCURRENCY} at once`, async () => {
    const items = Array.from({ length: 40 }, (_, i) => item(`p${i % 3}`, i + 1));
    let running = 0;
    let most = 0;
    const asked: string[] = [];
    await prepareBatch(
      items,
      {
        consumer: 'c',
        prepare: async (envelope, applied) => {
          running++;
          most = Math.max(most, running);
          expect(currentScope()?.correlationId).toBe(envelope.correlationId);
          expect(await applied()).toBe(false);
          await new Promise((resolve) => setTimeout(resolve, 2));
          running--;
          return `for ${envelope.eventId}`;
        },
      },
      async (messageId) => {
        asked.push(messageId);
        return false;
      },
    );
    expect(most).toBe(PREPARE_CONCURRENCY);
    expect(items.map((i) => i.prepared)).toEqual(items.map((i) => `for ${i.envelope.eventId}`));
    expect(asked.sort()).toEqual(items.map((i) => i.envelope.eventId).sort());
  });

  it('after a failure starts no new step, lets the running ones finish and throws the first error', async () => {
    const items = Array.from({ length: 40 }, (_, i) => item('p1', i + 1));
    const started: number[] = [];
    let finished = 0;
    const failing = prepareBatch(
      items,
      {
        consumer: 'c',
        prepare: async (envelope) => {
          const seq = (envelope.data as { seq: number }).seq;
          started.push(seq);
          await new Promise((resolve) => setTimeout(resolve, seq === 3 ? 1 : 20));
          if (seq === 3) throw new Error('step 3 failed');
          if (seq === 5) throw new Error('step 5 failed too');
          finished++;
          return seq;
        },
      },
      never,
    );
    await expect(failing).rejects.toThrow('step 3 failed');
    expect(started).toHaveLength(PREPARE_CONCURRENCY);
    expect(finished).toBe(PREPARE_CONCURRENCY - 2);
  });
});
