import { Counter, Histogram, register } from 'prom-client';

/*
 * Issue #17 the notifier's metrics, in prom-client's default registry (get-or-create: several
 * services may share one process). `channel` is email, slack or webhook.
 */

function getOrCreate<M>(name: string, create: () => M): M {
  return (register.getSingleMetric(name) as M | undefined) ?? create();
}

export const notifierMetrics = {
  sent: () =>
    getOrCreate(
      'openq_notifications_sent_total',
      () =>
        new Counter({
          name: 'openq_notifications_sent_total',
          help: 'Notifications delivered (the channel accepted them), by channel',
          labelNames: ['channel'] as const,
        }),
    ),
  failed: () =>
    getOrCreate(
      'openq_notifications_failed_total',
      () =>
        new Counter({
          name: 'openq_notifications_failed_total',
          help: 'Send attempts that failed (each retry counts), by channel',
          labelNames: ['channel'] as const,
        }),
    ),
  deadLettered: () =>
    getOrCreate(
      'openq_notifications_dead_lettered_total',
      () =>
        new Counter({
          name: 'openq_notifications_dead_lettered_total',
          help: 'Deliveries given up on (a permanent failure, or the last attempt failed), by channel',
          labelNames: ['channel'] as const,
        }),
    ),
  declaredToNotified: () =>
    getOrCreate(
      'openq_notifications_declared_to_notified_seconds',
      () =>
        new Histogram({
          name: 'openq_notifications_declared_to_notified_seconds',
          help: 'From a question declared to its first notification delivered, by channel',
          labelNames: ['channel'] as const,
          buckets: [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900, 3600],
        }),
    ),
};
