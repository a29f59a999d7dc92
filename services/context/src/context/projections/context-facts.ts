import type { EntityManager } from 'typeorm';
import {
  AgentEvent,
  OpenqEvent,
  type AgentStoryUpsertedDto,
  type AgentTaskStatusDto,
  type DecisionRecorded,
  type DecisionSuperseded,
  type EventEnvelope,
  type GateRescueParked,
  type GateResumed,
  type QuestionAnswered,
  type QuestionDeclared,
  type QuestionWithdrawn,
  type StoryArchived,
  type StoryCorrected,
} from '@openq/contracts';
import {
  analyticsAnswered,
  analyticsAskOnce,
  analyticsDeclared,
  analyticsGate,
  analyticsSuperseded,
  analyticsWithdrawn,
  type AskOnceFact,
} from './analytics.projector';
import { projectDecisionRecorded } from './decision.projector';
import { versionOf } from '../store/fact-version';
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
  [OpenqEvent.QuestionDeclared]: async (manager: EntityManager, e: EventEnvelope<QuestionDeclared>) => {
    await projectQuestionDeclared(manager, e.projectId, e.data);
    await analyticsDeclared(manager, e.projectId, e.data);
  },
  [OpenqEvent.QuestionWithdrawn]: async (manager: EntityManager, e: EventEnvelope<QuestionWithdrawn>) => {
    await projectQuestionWithdrawn(manager, e.projectId, e.data);
    await analyticsWithdrawn(manager, e.projectId, e.data);
  },
  // §12.4 question quality only (issue #33): the rest of the context reads decisions.
  [OpenqEvent.QuestionAnswered]: (manager: EntityManager, e: EventEnvelope<QuestionAnswered>) =>
    analyticsAnswered(manager, e.projectId, e.data),
  [OpenqEvent.DecisionSuperseded]: (manager: EntityManager, e: EventEnvelope<DecisionSuperseded>) =>
    analyticsSuperseded(manager, e.projectId, e.data),
  [OpenqEvent.GateRescueParked]: (manager: EntityManager, e: EventEnvelope<GateRescueParked>) =>
    analyticsGate(manager, e, 'parked'),
  [OpenqEvent.GateResumed]: (manager: EntityManager, e: EventEnvelope<GateResumed>) =>
    analyticsGate(manager, e, 'resumed'),
  // §12.3 ask once (issue #32), by the names SPEC gives them: until that lands nothing publishes
  // them, so they count 0; the payload is read only for `questionId` and `asker.autor`.
  'question.joined': (manager: EntityManager, e: EventEnvelope<AskOnceFact>) =>
    analyticsAskOnce(manager, 'question.joined', e),
  'question.precedent_offered': (manager: EntityManager, e: EventEnvelope<AskOnceFact>) =>
    analyticsAskOnce(manager, 'question.precedent_offered', e),
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
  OpenqEvent.QuestionAnswered,
  OpenqEvent.DecisionSuperseded,
  OpenqEvent.GateRescueParked,
  OpenqEvent.GateResumed,
  'question.joined',
  'question.precedent_offered',
];

/** Applies one validated fact of `type` in `manager`'s transaction. */
export function applyContextFact(
  manager: EntityManager,
  type: ContextFactType,
  envelope: EventEnvelope,
): Promise<void> {
  return (projectFact[type] as (m: EntityManager, e: EventEnvelope) => Promise<void>)(manager, envelope);
}
