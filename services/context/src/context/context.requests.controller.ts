import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { DataSource } from 'typeorm';
import {
  Commands,
  type AnalyticsCommand,
  type AnalyticsReply,
  type ArchiveStoryCommand,
  type ArchiveStoryReply,
  type CorrectStoryCommand,
  type CorrectStoryReply,
  type DevContext,
  type QaCut,
  type Refusal,
  type TaskContextCommand,
  type TurnContext,
  type TurnContextCommand,
} from '@openq/contracts';
import { QuestionOwner } from '@openq/platform';
import { archiveStory } from './commands/archive-story/archive-story.handler';
import { correctStory } from './commands/correct-story/correct-story.handler';
import { questionQuality } from './queries/analytics.query';
import { devContextOf, qaCutOf } from './queries/task-context.query';
import { turnContextOf } from './queries/turn-context.query';

/** `openq.context.*`: what the agents read (SPEC §6.1–6.3), the story correction (§6.4) and archive (§11.3). */
@Controller()
export class ContextRequestsController {
  constructor(
    private readonly dataSource: DataSource,
    private readonly owner: QuestionOwner,
  ) {}

  /** §12.4 question quality over days `from`..`to` (UTC, both included). */
  @MessagePattern(Commands.context.analytics.type)
  analytics(@Payload() cmd: AnalyticsCommand): Promise<AnalyticsReply> {
    return questionQuality(this.dataSource.manager, cmd);
  }

  @MessagePattern(Commands.context.devContext.type)
  devContext(@Payload() cmd: TaskContextCommand): Promise<DevContext | Refusal> {
    return devContextOf(this.dataSource.manager, cmd);
  }

  @MessagePattern(Commands.context.qaCut.type)
  qaCut(@Payload() cmd: TaskContextCommand): Promise<QaCut | Refusal> {
    return qaCutOf(this.dataSource.manager, cmd);
  }

  @MessagePattern(Commands.context.turnContext.type)
  turnContext(@Payload() cmd: TurnContextCommand): Promise<TurnContext> {
    return turnContextOf(this.dataSource, cmd);
  }

  @MessagePattern(Commands.context.correctStory.type)
  correctStory(@Payload() cmd: CorrectStoryCommand): Promise<CorrectStoryReply | Refusal> {
    return correctStory(this.dataSource, this.owner, cmd);
  }

  @MessagePattern(Commands.context.archiveStory.type)
  archiveStory(@Payload() cmd: ArchiveStoryCommand): Promise<ArchiveStoryReply | Refusal> {
    return archiveStory(this.dataSource, cmd);
  }
}
