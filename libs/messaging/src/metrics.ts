import { Counter, Gauge, Histogram, register } from 'prom-client';

/*
 * The transport's metrics, in prom-client's default registry (served on every process's
 * /metrics). Get-or-create: several services (laptop mode, tests) share one process registry,
 * and `consumer` (`<service>__<type>`) or `service` tell them apart.
 */

function getOrCreate<M>(name: string, create: () => M): M {
  return (register.getSingleMetric(name) as M | undefined) ?? create();
}

const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

export const messagingMetrics = {
  handlingDuration: () =>
    getOrCreate(
      'openq_event_handling_duration_seconds',
      () =>
        new Histogram({
          name: 'openq_event_handling_duration_seconds',
          help: 'Time to handle one inbound JetStream message (parse, transaction, outbox), by consumer, event type and outcome (ack, nak, term)',
          labelNames: ['consumer', 'type', 'outcome'] as const,
          buckets: LATENCY_BUCKETS,
        }),
    ),
  batchSize: () =>
    getOrCreate(
      'openq_consumer_batch_messages',
      () =>
        new Histogram({
          name: 'openq_consumer_batch_messages',
          help: 'Messages a durable consumer took into one transaction (1: a lone message), by consumer',
          labelNames: ['consumer'] as const,
          buckets: [1, 2, 4, 8, 16, 32, 64, 128, 256, 512],
        }),
    ),
  inboxDuplicates: () =>
    getOrCreate(
      'openq_inbox_duplicates_total',
      () =>
        new Counter({
          name: 'openq_inbox_duplicates_total',
          help: 'Redelivered messages found in the inbox and acked without effect, by consumer',
          labelNames: ['consumer'] as const,
        }),
    ),
  orderWaits: () =>
    getOrCreate(
      'openq_order_waits_total',
      () =>
        new Counter({
          name: 'openq_order_waits_total',
          help: 'Messages parked because an earlier message of their subject was not yet applied, by consumer',
          labelNames: ['consumer'] as const,
        }),
    ),
  deadLetters: () =>
    getOrCreate(
      'openq_dead_letters_total',
      () =>
        new Counter({
          name: 'openq_dead_letters_total',
          help: 'Messages terminated and written to dead_letter, by consumer and reason',
          labelNames: ['consumer', 'reason'] as const,
        }),
    ),
  requestDuration: () =>
    getOrCreate(
      'openq_request_duration_seconds',
      () =>
        new Histogram({
          name: 'openq_request_duration_seconds',
          help: 'Time to answer one request/reply (openq.<service>.<verb>), by verb and reply status (ok or the error statusCode)',
          labelNames: ['service', 'verb', 'status'] as const,
          buckets: LATENCY_BUCKETS,
        }),
    ),
  consumerPending: () =>
    getOrCreate(
      'openq_consumer_pending_messages',
      () =>
        new Gauge({
          name: 'openq_consumer_pending_messages',
          help: 'Messages in the stream not yet delivered to the durable consumer (num_pending), sampled every ~10 s; every replica reports the same consumer: use max by (consumer)',
          labelNames: ['consumer'] as const,
        }),
    ),
  consumerAckPending: () =>
    getOrCreate(
      'openq_consumer_ack_pending_messages',
      () =>
        new Gauge({
          name: 'openq_consumer_ack_pending_messages',
          help: 'Messages delivered to the durable consumer and not yet acked (num_ack_pending), sampled every ~10 s',
          labelNames: ['consumer'] as const,
        }),
    ),
  consumerRedelivered: () =>
    getOrCreate(
      'openq_consumer_redelivered_messages',
      () =>
        new Gauge({
          name: 'openq_consumer_redelivered_messages',
          help: 'Messages of the durable consumer delivered more than once and not yet acked (num_redelivered), sampled every ~10 s',
          labelNames: ['consumer'] as const,
        }),
    ),
  outboxBacklog: () =>
    getOrCreate(
      'openq_outbox_backlog_rows',
      () =>
        new Gauge({
          name: 'openq_outbox_backlog_rows',
          help: 'Outbox rows not yet published to JetStream, sampled every ~10 s',
          labelNames: ['service'] as const,
        }),
    ),
  outboxPublished: () =>
    getOrCreate(
      'openq_outbox_published_total',
      () =>
        new Counter({
          name: 'openq_outbox_published_total',
          help: 'Outbox rows this process published (PubAck received) and marked',
          labelNames: ['service'] as const,
        }),
    ),
};

export function secondsSince(startedMs: number): number {
  return (performance.now() - startedMs) / 1000;
}
