import { AckPolicy, DeliverPolicy, nanos, type NatsConnection } from 'nats';
import { STREAMS, type EventEnvelope } from '@openq/contracts';
import { waitFor } from '@openq/testing';
import type { StackView } from '../../support/processes';

/** Reading the system's state from outside: consumers, outboxes, dead letters, the streams. */

export const SCHEMAS = ['questions', 'gates', 'context'] as const;
const OWN_DURABLE = /^(questions|gates|context)__/;

export interface ConsumerState {
  stream: string;
  name: string;
  pending: number;
  ackPending: number;
  redelivered: number;
}

export async function consumerStates(nc: NatsConnection): Promise<ConsumerState[]> {
  const jsm = await nc.jetstreamManager();
  const out: ConsumerState[] = [];
  for (const stream of [STREAMS.agentEvents.name, STREAMS.openqEvents.name]) {
    for (const c of await jsm.consumers.list(stream).next()) {
      if (!OWN_DURABLE.test(c.name)) continue;
      out.push({
        stream,
        name: c.name,
        pending: c.num_pending,
        ackPending: c.num_ack_pending,
        redelivered: c.num_redelivered,
      });
    }
  }
  return out;
}

/** The schemas of the domain services this stack runs. */
export const schemasOf = (stack: StackView) => SCHEMAS.filter((s) => stack.procs.has(s));

export async function outboxBacklog(stack: StackView): Promise<number> {
  let total = 0;
  for (const schema of schemasOf(stack))
    total += await stack.count(`SELECT count(*) AS n FROM ${schema}.outbox WHERE published_at IS NULL`);
  return total;
}

/** Nothing left to do anywhere: every outbox published, every durable consumer taken and acked — twice in a row. */
export async function waitQuiet(stack: StackView, timeoutMs = 120_000): Promise<number> {
  const started = Date.now();
  let calm = 0;
  let last = '';
  try {
    await waitFor(
      async () => {
        const busy = (await consumerStates(stack.nc)).filter((c) => c.pending + c.ackPending > 0);
        const backlog = await outboxBacklog(stack);
        last = `outbox backlog ${backlog}; busy consumers ${JSON.stringify(busy)}`;
        calm = busy.length === 0 && backlog === 0 ? calm + 1 : 0;
        return calm >= 2;
      },
      { timeoutMs, intervalMs: 250, what: 'outboxes published and consumers drained' },
    );
  } catch (error) {
    const letters = await deadLetters(stack).catch(() => []);
    throw new Error(
      `${error instanceof Error ? error.message : String(error)} — ${last}; dead letters ${JSON.stringify(letters)}`,
    );
  }
  return Date.now() - started;
}

/** Every message of `stream` on `filter`, read by an ephemeral consumer. */
export async function readStream<T = unknown>(
  nc: NatsConnection,
  stream: string,
  filter: string,
): Promise<
  { seq: number; subject: string; envelope: EventEnvelope<T> | null; msgId: string | null; raw: Uint8Array }[]
> {
  const jsm = await nc.jetstreamManager();
  const name = `faults_${Math.random().toString(36).slice(2)}`;
  const info = await jsm.consumers.add(stream, {
    name,
    ack_policy: AckPolicy.None,
    deliver_policy: DeliverPolicy.All,
    filter_subject: filter,
    inactive_threshold: nanos(30_000),
  });
  const total = info.num_pending;
  const consumer = await nc.jetstream().consumers.get(stream, name);
  const out: {
    seq: number;
    subject: string;
    envelope: EventEnvelope<T> | null;
    msgId: string | null;
    raw: Uint8Array;
  }[] = [];
  while (out.length < total) {
    const batch = await consumer.fetch({ max_messages: Math.min(1000, total - out.length), expires: 5000 });
    for await (const m of batch) {
      let envelope: EventEnvelope<T> | null = null;
      try {
        envelope = m.json<EventEnvelope<T>>();
      } catch {
        envelope = null;
      }
      out.push({
        seq: m.seq,
        subject: m.subject,
        envelope,
        msgId: m.headers?.get('Nats-Msg-Id') ?? null,
        raw: m.data,
      });
    }
  }
  await jsm.consumers.delete(stream, name).catch(() => undefined);
  return out;
}

export async function deadLetters(
  stack: StackView,
): Promise<{ schema: string; consumer: string; reason: string; n: number }[]> {
  const out: { schema: string; consumer: string; reason: string; n: number }[] = [];
  for (const schema of schemasOf(stack)) {
    const rows = await stack.sql<{ consumer: string; reason: string; n: string }>(
      `SELECT consumer, reason, count(*) AS n FROM ${schema}.dead_letter GROUP BY 1, 2`,
    );
    out.push(...rows.map((r) => ({ schema, consumer: r.consumer, reason: r.reason, n: Number(r.n) })));
  }
  return out;
}
