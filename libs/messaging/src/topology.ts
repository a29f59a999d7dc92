import {
  AckPolicy,
  DeliverPolicy,
  nanos,
  RetentionPolicy,
  StorageType,
  type ConsumerConfig,
  type StreamConfig,
} from 'nats';
import {
  EVERY_OPENQ_EVENT,
  STREAMS,
  WHOLE_STREAM_CONSUMERS,
  eventFilter,
  streamOfType,
  type StreamKey,
} from '@openq/contracts';

/**
 * The stream and consumer definitions as code: services provision exactly these at start,
 * and deploy/ renders the same definitions for a cluster.
 */
export interface StreamSettings {
  replicas: number;
  /** JetStream drops a second publish with the same Nats-Msg-Id inside this window. */
  duplicateWindowMs: number;
  maxAgeMs: number;
}

export const DEFAULT_STREAM_SETTINGS: StreamSettings = {
  replicas: 1,
  duplicateWindowMs: 10 * 60_000,
  maxAgeMs: 30 * 24 * 3600_000,
};

export function streamConfig(
  key: StreamKey,
  settings: StreamSettings = DEFAULT_STREAM_SETTINGS,
): Partial<StreamConfig> {
  const stream = STREAMS[key];
  return {
    name: stream.name,
    subjects: [...stream.subjects],
    retention: RetentionPolicy.Limits,
    storage: StorageType.File,
    num_replicas: settings.replicas,
    duplicate_window: nanos(settings.duplicateWindowMs),
    max_age: nanos(settings.maxAgeMs),
  };
}

export interface ConsumerSettings {
  /** How long the server waits for an ack before redelivering. */
  ackWaitMs: number;
  /** Deliveries before the server gives up (-1: never; transient failures retry until the database is back, poison is dead-lettered by the transport). */
  maxDeliver: number;
  /** In-flight messages per consumer across all replicas. */
  maxAckPending: number;
}

/**
 * ack_wait 10 s: what a process held when it died (SIGKILL, a lost node, acks lost in a broker
 * outage) is redelivered within 10 s. A live process keeps what it holds from being redelivered
 * however long it waits or runs (ConsumerRunner's keep-alive, a third of ack_wait). Measured:
 * docs/performance.md, session 13.
 */
export const DEFAULT_CONSUMER_SETTINGS: ConsumerSettings = {
  ackWaitMs: 10_000,
  maxDeliver: -1,
  maxAckPending: 256,
};

/** Durable name of `service`'s consumer of events of `type` (one consumer per type and service). */
export function durableName(service: string, type: string): string {
  return `${service}__${type.replace(/\./g, '_')}`;
}

/**
 * The durable that brings `service` its events of `type`: its whole-stream durable for a type of
 * that stream when the service is one of `WHOLE_STREAM_CONSUMERS` (docs/decisions.md, "A service's
 * types ride its whole-stream durable"), else the type's own. What the contract's documents, the
 * inbox rows and the metrics name.
 */
export function durableOf(service: string, type: string): string {
  const rides =
    WHOLE_STREAM_CONSUMERS.includes(service) && streamOfType(type) === streamOfType(EVERY_OPENQ_EVENT);
  return durableName(service, rides ? EVERY_OPENQ_EVENT : type);
}

export function consumerConfig(
  service: string,
  type: string,
  settings: ConsumerSettings = DEFAULT_CONSUMER_SETTINGS,
): Partial<ConsumerConfig> & { durable_name: string } {
  return {
    durable_name: durableName(service, type),
    ack_policy: AckPolicy.Explicit,
    deliver_policy: DeliverPolicy.All,
    // The whole stream (EVERY_OPENQ_EVENT): no filter at all, since nats-server 2.9 takes one subject.
    ...(type === EVERY_OPENQ_EVENT ? {} : { filter_subject: eventFilter(type) }),
    ack_wait: nanos(settings.ackWaitMs),
    max_deliver: settings.maxDeliver,
    max_ack_pending: settings.maxAckPending,
  };
}
