import { Counter, register } from 'prom-client';

/**
 * Get-or-create: several services (or two stacks in a test) may share one process registry.
 * Created at load, so each series shows on `/metrics` (at 0) before anything goes wrong.
 */
function counter(name: string, help: string, labelNames: string[] = []): Counter<string> {
  const existing = register.getSingleMetric(name);
  return (existing as Counter<string> | undefined) ?? new Counter({ name, help, labelNames });
}

/** SPEC §7 never-raise: the questions predicate failed and degraded to "not active". */
export const questionsPredicateFailures = counter(
  'openq_pipeline_questions_predicate_failures_total',
  'Analyses whose questions predicate failed and degraded to "not active" (previous behaviour)',
);

/** An analyst question the questions service refused (4xx): skipped, never retried. */
export const questionDeclareRefusals = counter(
  'openq_pipeline_question_declare_refusals_total',
  'Analyst questions the questions service refused to declare (skipped)',
  ['reason'],
);

/** The serial gate met an error: the freeze check failed closed, or the rest failed open. */
export const admissionDegradations = counter(
  'openq_pipeline_admission_degraded_total',
  'Serial-gate checks that met an error (freeze: fail closed; the rest: fail open)',
  ['check'],
);
