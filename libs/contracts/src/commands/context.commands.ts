import { IsOptional } from 'class-validator';
import { ASKER_ROLES, type AskerRole } from '../vocabulary';
import { IsEntityId, IsOneOf, IsUuidString, Nested } from '../validators';
import { ActorDto } from '../dto/actor.dto';
import { StoryChangesDto } from '../dto/story-changes.dto';
import { defineCommand } from './command';
import { ANALYTICS_GROUPINGS, IsDay, type AnalyticsGrouping, type AnalyticsReply } from '../analytics';
import type { ArchiveStoryReply, CorrectStoryReply, DevContext, QaCut, TurnContext } from './context.views';
import { ProjectScoped, TaskScoped } from './project-scoped.dto';
import { Verb } from './verbs';

/** `dev-context` and `qa-cut` both ask about one task. */
export class TaskContextCommand extends TaskScoped {}

export class TurnContextCommand extends ProjectScoped {
  @IsOneOf(ASKER_ROLES)
  role!: AskerRole;
}

/**
 * §6.4 one rule for both doors: the user route (actor `user`) and the internal one
 * (actor `{ kind: 'agent', id: 'po' }`).
 */
export class CorrectStoryCommand extends ProjectScoped {
  @IsEntityId()
  storyId!: string;

  @Nested(() => ActorDto)
  actor!: ActorDto;

  /** An answered question lets a `ready` story be corrected. */
  @IsOptional()
  @IsUuidString()
  questionId?: string | null;

  @Nested(() => StoryChangesDto)
  changes!: StoryChangesDto;
}

/** §11.3 archive a draft story; the two doors of §6.4 (actor `user`, or `agent/po`). */
export class ArchiveStoryCommand extends ProjectScoped {
  @IsEntityId()
  storyId!: string;

  @Nested(() => ActorDto)
  actor!: ActorDto;
}

/** §12.4 the question-quality rows of a project over a window of days (both included, UTC). */
export class AnalyticsCommand extends ProjectScoped {
  @IsDay()
  from!: string;

  @IsDay()
  to!: string;

  @IsOneOf(ANALYTICS_GROUPINGS)
  by!: AnalyticsGrouping;
}

export const ContextCommand = {
  devContext: defineCommand<TaskContextCommand, DevContext>(Verb.context.devContext, TaskContextCommand),
  qaCut: defineCommand<TaskContextCommand, QaCut>(Verb.context.qaCut, TaskContextCommand),
  turnContext: defineCommand<TurnContextCommand, TurnContext>(Verb.context.turnContext, TurnContextCommand),
  correctStory: defineCommand<CorrectStoryCommand, CorrectStoryReply>(
    Verb.context.correctStory,
    CorrectStoryCommand,
  ),
  archiveStory: defineCommand<ArchiveStoryCommand, ArchiveStoryReply>(
    Verb.context.archiveStory,
    ArchiveStoryCommand,
  ),
  analytics: defineCommand<AnalyticsCommand, AnalyticsReply>(Verb.context.analytics, AnalyticsCommand),
} as const;
