import type { EntityManager } from 'typeorm';
import {
  AgentEvent,
  OpenqEvent,
  type AgentStoryUpsertedDto,
  type AgentTaskStatusDto,
  type DecisionRecorded,
  type EventEnvelope,
  type QuestionDeclared,
  type QuestionWithdrawn,
  type StoryArchived,
  type StoryCorrected,
} from '@openq/contracts';
import { projectDecisionRecorded } from './decision.projector';
import { versionOf } from './fact-version';
import {
  projectQuestionAnswered,
  projectQuestionDeclared,
  projectQuestionWithdrawn,
} from './question.projector';
import { projectStoryArchived, projectStoryCorrected, projectStoryUpserted } from './story.projector';
import { projectTaskStatus } from './task.projector';

/**
 * How each fact reaches the read models: the live consumers (`ContextEventsController`) and the
 * replay (`replay.ts`) both call these, so a replay writes exactly what the consumers wrote —
 * same projector, same `FactVersion`. `envelope.data` is the payload validated against its type.
 */
export const projectFact = {
  [AgentEvent.StoryUpserted]: (manager: EntityManager, e: EventEnvelope<AgentStoryUpsertedDto>) =>
    projectStoryUpserted(manager, e.projectId, e.data, versionOf(e)),
  [AgentEvent.TaskStatus]: (manager: EntityManager, e: EventEnvelope<AgentTaskStatusDto>) =>
    projectTaskStatus(manager, e.projectId, e.data, versionOf(e)),
  // The decision, and the answered state of its question (`question.answered` is not consumed here:
  // every answer publishes both, with the same instant).
  [OpenqEvent.DecisionRecorded]: async (manager: EntityManager, e: EventEnvelope<DecisionRecorded>) => {
    await projectDecisionRecorded(manager, e.projectId, e.data);
    await projectQuestionAnswered(manager, e.projectId, {
      questionId: e.data.questionId,
      answeredAt: e.data.decidedAt,
    });
  },
  [OpenqEvent.QuestionDeclared]: (manager: EntityManager, e: EventEnvelope<QuestionDeclared>) =>
    projectQuestionDeclared(manager, e.projectId, e.data),
  [OpenqEvent.QuestionWithdrawn]: (manager: EntityManager, e: EventEnvelope<QuestionWithdrawn>) =>
    projectQuestionWithdrawn(manager, e.projectId, e.data),
  // Not consumed: the correction command writes the content itself (same version); replay only.
  [OpenqEvent.StoryCorrected]: (manager: EntityManager, e: EventEnvelope<StoryCorrected>) =>
    projectStoryCorrected(manager, e.projectId, e.data, versionOf(e)),
  // Not consumed either: the archive command writes the flag itself (same version); replay only.
  [OpenqEvent.StoryArchived]: (manager: EntityManager, e: EventEnvelope<StoryArchived>) =>
    projectStoryArchived(manager, e.projectId, e.data, versionOf(e)),
} as const;

export type ContextFactType = keyof typeof projectFact;

/** The types with a durable consumer here (`context__<type>`); the controller's event patterns. */
export const CONSUMED_FACT_TYPES: readonly ContextFactType[] = [
  AgentEvent.StoryUpserted,
  AgentEvent.TaskStatus,
  OpenqEvent.DecisionRecorded,
  OpenqEvent.QuestionDeclared,
  OpenqEvent.QuestionWithdrawn,
];

/** Applies one validated fact of `type` in `manager`'s transaction. */
export function applyContextFact(
  manager: EntityManager,
  type: ContextFactType,
  envelope: EventEnvelope,
): Promise<void> {
  return (projectFact[type] as (m: EntityManager, e: EventEnvelope) => Promise<void>)(manager, envelope);
}
