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
  oneStatementUnits: () =>
    getOrCreate(
      'openq_one_statement_units_total',
      () =>
        new Counter({
          name: 'openq_one_statement_units_total',
          help: 'Messages tried as one statement without a transaction, by consumer and outcome (applied; statement: the handler needed one of its own; failed: a duplicate, a turn to look up, a failure — the usual transaction followed)',
          labelNames: ['consumer', 'outcome'] as const,
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
  groupSize: () =>
    getOrCreate(
      'openq_group_commit_units',
      () =>
        new Histogram({
          name: 'openq_group_commit_units',
          help: 'Units of work committed in one group transaction at a request edge, by group kind (declarations, answers); a split group is counted again per unit',
          labelNames: ['group'] as const,
          buckets: [1, 2, 4, 8, 16, 32, 64, 128, 256],
        }),
    ),
  groupOutcomes: () =>
    getOrCreate(
      'openq_group_commit_events_total',
      () =>
        new Counter({
          name: 'openq_group_commit_events_total',
          help: 'Group commit events by group kind: split (a group failed unexpectedly and was retried unit by unit), overloaded (a unit refused 503 sobrecarregado)',
          labelNames: ['group', 'event'] as const,
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
  streamPresent: () =>
    getOrCreate(
      'openq_stream_present',
      () =>
        new Gauge({
          name: 'openq_stream_present',
          help: 'Whether the JetStream stream exists (1) or the server says it does not (0), sampled every ~10 s by every domain service',
          labelNames: ['stream'] as const,
        }),
    ),
  consumerPresent: () =>
    getOrCreate(
      'openq_consumer_present',
      () =>
        new Gauge({
          name: 'openq_consumer_present',
          help: 'Whether the durable consumer exists (1) or the server says it or its stream does not (0), sampled every ~10 s',
          labelNames: ['consumer', 'stream'] as const,
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
  outboxRelayed: () =>
    getOrCreate(
      'openq_outbox_relayed_total',
      () =>
        new Counter({
          name: 'openq_outbox_relayed_total',
          help: 'Of the outbox rows this process published, those its relay published (no after-commit publisher took them, or it did not get to them)',
          labelNames: ['service'] as const,
        }),
    ),
  outboxPublishedAfterCommit: () =>
    getOrCreate(
      'openq_outbox_published_after_commit_total',
      () =>
        new Counter({
          name: 'openq_outbox_published_after_commit_total',
          help: 'Of the outbox rows this process published, those published right after their commit (not by the relay)',
          labelNames: ['service'] as const,
        }),
    ),
};

export function secondsSince(startedMs: number): number {
  return (performance.now() - startedMs) / 1000;
}
