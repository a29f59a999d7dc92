import { Histogram, register } from 'prom-client';

export const ANSWER_TO_RESUME_METRIC = 'openq_gate_answer_to_resume_seconds';

/**
 * From a question's `answeredAt` to the gates service deciding the resume of a cycle parked on
 * it (the question log's outbox, JetStream, the gates consumer): what a user waits for after the
 * click. Observed in the resuming transaction; one retried after a transient error counts twice.
 */
export function answerToResumeHistogram(): Histogram<'gate'> {
  const existing = register.getSingleMetric(ANSWER_TO_RESUME_METRIC);
  if (existing) return existing as Histogram<'gate'>;
  return new Histogram({
    name: ANSWER_TO_RESUME_METRIC,
    help: 'Seconds from a question being answered to the gate cycle parked on it resuming, by gate',
    labelNames: ['gate'],
    buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300],
  });
}
