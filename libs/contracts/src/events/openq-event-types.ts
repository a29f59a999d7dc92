/**
 * [openq] issue #30 the wire type of every openq event, as plain words: what a browser may import
 * (the event table itself, openq-events.ts, brings the DTOs and class-validator). openq-events.ts
 * holds this list and the table equal at compile time, both ways.
 */
export const OPENQ_EVENT_NAMES = [
  'question.declared',
  'question.answered',
  'question.withdrawn',
  'question.joined',
  'question.precedent_offered',
  'question.split',
  'question.rejected',
  'decision.recorded',
  'decision.superseded',
  'delegation.granted',
  'delegation.revoked',
  'project.policy_changed',
  'gate.verdict_recorded',
  'gate.rescue_parked',
  'gate.resumed',
  'gate.redispatch_requested',
  'gate.verdict_rejected',
  'pipeline.task_admitted',
  'pipeline.needs_input',
  'pipeline.in_review',
  'pipeline.advanced',
  'pipeline.analysis_incomplete',
  'pipeline.task_paused',
  'pipeline.task_unpaused',
  'pipeline.analyst_relaunch',
  'story.corrected',
  'pipeline.repo_frozen',
  'pipeline.repo_unfrozen',
  'story.archived',
] as const;
export type OpenqEventName = (typeof OPENQ_EVENT_NAMES)[number];
